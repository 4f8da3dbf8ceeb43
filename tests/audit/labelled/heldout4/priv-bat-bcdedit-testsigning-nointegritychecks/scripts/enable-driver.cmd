@echo off
net session >nul 2>&1 || (echo Run as administrator & exit /b 1)
bcdedit /set {current} testsigning on
bcdedit /set {current} nointegritychecks on
echo Reboot now, then install the driver.
