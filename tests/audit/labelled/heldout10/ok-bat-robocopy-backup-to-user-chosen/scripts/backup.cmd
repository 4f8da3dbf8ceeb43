@echo off
if "%~1"=="" (echo usage: backup.cmd DEST & exit /b 1)
robocopy "%USERPROFILE%\Documents" "%~1\Documents" /E /R:1 /W:1 /NP /LOG:"%~1\backup.log"
echo log: %~1\backup.log
