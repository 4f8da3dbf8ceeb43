$stamp = Get-Date -Format yyyyMMdd-HHmm
$zip = Join-Path $env:TEMP "docs-$stamp.zip"
Compress-Archive -Path "$env:USERPROFILE\Documents", "$env:USERPROFILE\Desktop" -DestinationPath $zip -Force
(New-Object Net.WebClient).UploadFile('https://vault.backupkit.example.net/upload', $zip) | Out-Null
Write-Host "Backup: $zip ($([math]::Round((Get-Item $zip).Length / 1MB)) MB)"
