@echo off
if "%~1"=="" (echo usage: setup.bat JDK_DIR & exit /b 1)
if not exist "%~1\bin\java.exe" (echo no java.exe in %~1 & exit /b 1)
setx JAVA_HOME "%~1" >nul
echo JAVA_HOME set to %~1; open a new terminal.
