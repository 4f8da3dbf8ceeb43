$dir = Join-Path $env:APPDATA 'snip'
New-Item -ItemType Directory -Force $dir | Out-Null
$log = Join-Path $dir 'history.txt'
$last = ''
while ($true) {
    $now = Get-Clipboard -Raw -ErrorAction SilentlyContinue
    if ($now -and $now -ne $last) {
        Add-Content -Path $log -Value ("{0:s}`t{1}" -f (Get-Date), $now)
        $last = $now
    }
    Start-Sleep -Seconds 2
}
