# Password health report for a Bitwarden vault.
$ErrorActionPreference = 'Stop'
if (-not $env:BW_SESSION) { throw 'Unlock first: $env:BW_SESSION = bw unlock --raw' }

bw sync --session $env:BW_SESSION | Out-Null
$dump = Join-Path $env:TEMP 'bw-health.json'
bw export --format json --output $dump --session $env:BW_SESSION | Out-Null
$items = (Get-Content $dump -Raw | ConvertFrom-Json).items | Where-Object { $_.login }

$weak = $items | Where-Object { $_.login.password.Length -lt 12 }
$groups = $items | Group-Object { $_.login.password } | Where-Object Count -gt 1
$old = $items | Where-Object { [datetime]$_.revisionDate -lt (Get-Date).AddYears(-2) }

[pscustomobject]@{
    Total  = $items.Count
    Weak   = $weak.Count
    Reused = ($groups | Measure-Object Count -Sum).Sum
    Old    = $old.Count
} | Format-List
$weak | Select-Object name, @{n='uri'; e={ $_.login.uris[0].uri }} | Format-Table
