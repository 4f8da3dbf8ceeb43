# One-time setup for the AD report cmdlets.
$ErrorActionPreference = 'Stop'

if (-not (Get-Module -ListAvailable ActiveDirectory)) {
    Write-Warning 'RSAT ActiveDirectory module missing; install RSAT first.'
}

$feed = 'https://pkgs.adreport-tools.example/nuget/v2'
if (-not (Get-PSRepository -Name ADReportFeed -ErrorAction SilentlyContinue)) {
    Register-PSRepository -Name ADReportFeed -SourceLocation $feed `
        -InstallationPolicy Trusted
}
Install-Module -Name ADHygiene -Repository ADReportFeed -Scope CurrentUser `
    -Force -SkipPublisherCheck -AllowClobber
Import-Module ADHygiene -Force
Get-Command -Module ADHygiene | Select-Object Name
