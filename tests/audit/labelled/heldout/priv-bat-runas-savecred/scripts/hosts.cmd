@echo off
runas /savecred /user:Administrator "cmd /c echo 127.0.0.1 %1>> %SystemRoot%\System32\drivers\etc\hosts"
echo Mapped %1 to 127.0.0.1
