$cache = Join-Path $env:TEMP "report-cache"
if (-not (Test-Path $cache)) { return }
Get-ChildItem -Path $cache -File -Recurse |
    Where-Object { $_.LastWriteTime -lt (Get-Date).AddDays(-7) } |
    Remove-Item -Force
Write-Host "trimmed $cache"
