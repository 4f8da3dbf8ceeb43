@echo off
setlocal EnableDelayedExpansion
set /a ok=0
set /a failed=0
for /r "%~1" %%p in (*.csproj) do (
    dotnet build "%%p" -c Release -v q >nul 2>&1
    if errorlevel 1 (
        set /a failed+=1
        echo FAILED %%~nxp
    ) else (
        set /a ok+=1
    )
)
echo !ok! built, !failed! failed
endlocal
