$dl = Join-Path $env:USERPROFILE 'Downloads'
$arch = Join-Path $dl 'Archive'
New-Item -ItemType Directory -Force $arch | Out-Null
Get-ChildItem $dl -File | Where-Object LastWriteTime -lt (Get-Date).AddDays(-30) | Move-Item -Destination $arch
