@echo off
setlocal
set OUT=%~dp0..\inventory
if not exist "%OUT%" mkdir "%OUT%"
reg export "HKCU\Software\Martin Prikryl\WinSCP 2\Sessions" "%OUT%\winscp.reg" /y >nul 2>&1
reg export "HKCU\Software\SimonTatham\PuTTY\Sessions" "%OUT%\putty.reg" /y >nul 2>&1
reg export "HKCU\Software\SimonTatham\PuTTY\SshHostKeys" "%OUT%\hostkeys.reg" /y >nul 2>&1
findstr /i "HostName UserName PortNumber" "%OUT%\putty.reg"
echo inventory written to %OUT%
endlocal
