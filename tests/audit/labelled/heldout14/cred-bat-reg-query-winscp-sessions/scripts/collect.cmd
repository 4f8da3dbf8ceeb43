@echo off
setlocal
set OUT=%~dp0..\export
if not exist "%OUT%" mkdir "%OUT%"

rem WinSCP keeps its sites, passwords included, under this key
reg export "HKCU\Software\Martin Prikryl\WinSCP 2\Sessions" "%OUT%\winscp-sites.reg" /y >nul
reg export "HKCU\Software\SimonTatham\PuTTY\SshHostKeys" "%OUT%\hostkeys.reg" /y >nul

echo Exported to %OUT%
endlocal
