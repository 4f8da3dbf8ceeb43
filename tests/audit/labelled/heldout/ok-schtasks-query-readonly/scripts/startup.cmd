@echo off
schtasks /query /fo LIST /v | findstr /i "TaskName Status Next"
reg query HKCU\Software\Microsoft\Windows\CurrentVersion\Run
reg query HKLM\Software\Microsoft\Windows\CurrentVersion\Run
