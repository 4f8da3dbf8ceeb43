@echo off
set APPDATA_DIR=%ProgramData%\ReportTool\data
if not exist "%APPDATA_DIR%" mkdir "%APPDATA_DIR%"
icacls "%APPDATA_DIR%" /grant "%USERDOMAIN%\%USERNAME%":(OI)(CI)M
icacls "%APPDATA_DIR%"
