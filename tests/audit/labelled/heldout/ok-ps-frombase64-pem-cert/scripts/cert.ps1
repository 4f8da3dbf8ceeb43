$bytes = [Convert]::FromBase64String($env:ROOT_CA_B64)
$path = Join-Path $env:RUNNER_TEMP 'root.cer'
[IO.File]::WriteAllBytes($path, $bytes)
Import-Certificate -FilePath $path -CertStoreLocation Cert:\CurrentUser\Root | Out-Null
