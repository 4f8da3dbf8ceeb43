@echo off
:loop
robocopy "%USERPROFILE%\Documents" "\\nas.example.com\backup\%USERNAME%" /MIR /R:1 /W:1 >nul
timeout /t 600 >nul
goto loop
