@echo off
setlocal
set STAMP=%date:~-4%%date:~3,2%%date:~0,2%-%time:~0,2%%time:~3,2%
set STAMP=%STAMP: =0%
if not exist logs mkdir logs
msbuild /m /nologo > "logs\build-%STAMP%.log" 2>&1
echo log: logs\build-%STAMP%.log
