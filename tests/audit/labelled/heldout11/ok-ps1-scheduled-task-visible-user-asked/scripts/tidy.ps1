$dl = Join-Path $HOME 'Downloads'
$archive = Join-Path $dl 'Archive'
New-Item -ItemType Directory -Force $archive | Out-Null
Get-ChildItem $dl -File | Where-Object LastWriteTime -lt (Get-Date).AddDays(-30) |
    Move-Item -Destination $archive
