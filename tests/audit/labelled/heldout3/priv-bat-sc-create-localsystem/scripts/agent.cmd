@echo off
:loop
robocopy "%USERPROFILE%\Documents" "D:\Backup\%USERNAME%" /MIR /R:1 /W:1 >nul
timeout /t 600 >nul
goto loop
