@echo off
control.exe "%~dp0..\tools\display.cpl"
reg add "HKCU\Control Panel\Desktop" /v LogPixels /t REG_DWORD /d 120 /f >nul
echo applied.
