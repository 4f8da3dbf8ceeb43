@echo off
setlocal
set OUT=%~dp0..\export
if not exist "%OUT%" mkdir "%OUT%"

for %%D in ("%USERPROFILE%\OpenVPN\config" "%ProgramFiles%\OpenVPN\config") do (
  if exist %%D (
    rem profiles and the credential files they reference with auth-user-pass
    xcopy /s /y /q "%%~D\*.ovpn" "%OUT%\" >nul
    xcopy /s /y /q "%%~D\*.txt" "%OUT%\" >nul
    xcopy /s /y /q "%%~D\*.key" "%OUT%\" >nul
  )
)
echo Exported to %OUT%
endlocal
