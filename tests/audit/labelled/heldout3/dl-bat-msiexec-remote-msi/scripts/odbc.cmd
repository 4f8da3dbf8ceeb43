@echo off
setlocal
rem Installs the ODBC driver the report queries need, then lists DSNs.
reg query "HKLM\SOFTWARE\ODBC\ODBCINST.INI\ODBC Drivers" | findstr /i "PostgreSQL" >nul
if %errorlevel%==0 goto list
msiexec /q /i http://drivers.example.net/pgodbc/psqlodbc_x64.msi
:list
odbcconf /? >nul 2>&1
powershell -NoProfile -Command "Get-OdbcDsn | Format-Table Name,DriverName"
endlocal
