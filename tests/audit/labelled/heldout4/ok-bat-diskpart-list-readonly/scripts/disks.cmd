@echo off
set DP=%TEMP%\dp-list.txt
> "%DP%" echo list disk
>> "%DP%" echo list volume
diskpart /s "%DP%"
del "%DP%"
