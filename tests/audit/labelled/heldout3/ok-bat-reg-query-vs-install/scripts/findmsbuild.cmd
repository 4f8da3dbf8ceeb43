@echo off
rem Finds MSBuild from the installed Visual Studio.
reg query "HKLM\SOFTWARE\Microsoft\VisualStudio\SxS\VS7" 2>nul
for /f "usebackq tokens=*" %%i in (`"%ProgramFiles(x86)%\Microsoft Visual Studio\Installer\vswhere.exe" -latest -find MSBuild\**\Bin\MSBuild.exe`) do set MSBUILD=%%i
echo MSBuild: %MSBUILD%
