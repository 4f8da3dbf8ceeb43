@echo off
auditpol /get /category:*
wevtutil gl Security
