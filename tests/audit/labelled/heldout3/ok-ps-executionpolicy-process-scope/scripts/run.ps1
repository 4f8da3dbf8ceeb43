# Runs the project's Pester tests.
Set-ExecutionPolicy -Scope Process -ExecutionPolicy Bypass -Force
if (-not (Get-Module -ListAvailable Pester)) { Install-Module Pester -Scope CurrentUser -Force }
Invoke-Pester -Path "$PSScriptRoot\..\tests" -Output Detailed
