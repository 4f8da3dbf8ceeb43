@echo off
rundll32.exe "%~dp0version.dll",SignPdf %1
