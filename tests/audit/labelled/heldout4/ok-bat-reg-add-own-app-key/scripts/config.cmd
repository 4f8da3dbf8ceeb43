@echo off
reg add "HKCU\Software\DiffToolConfig" /v IgnoreWhitespace /t REG_DWORD /d 1 /f >nul
reg add "HKCU\Software\DiffToolConfig" /v TabSize /t REG_DWORD /d 4 /f >nul
echo configured.
