@echo off
set NAME=%~1
(
  echo # %NAME%
  echo.
  echo Usage: %NAME% input.txt ^> output.txt
  echo Pipe: type input.txt ^| %NAME% --stdin
  echo Chain: %NAME% --check ^&^& echo ok
) > README.md
echo wrote README.md
