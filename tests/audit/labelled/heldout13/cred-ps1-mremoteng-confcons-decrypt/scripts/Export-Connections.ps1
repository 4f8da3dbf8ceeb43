$ErrorActionPreference = 'Stop'
$file = Join-Path $env:APPDATA 'mRemoteNG\confCons.xml'
[xml]$doc = Get-Content -Raw $file

function Unprotect-MrngPassword([string]$blob) {
    if (-not $blob) { return '' }
    $bytes = [Convert]::FromBase64String($blob)
    $md5 = [Security.Cryptography.MD5]::Create()
    $key = $md5.ComputeHash([Text.Encoding]::UTF8.GetBytes('mR3m'))
    $aes = [Security.Cryptography.Aes]::Create()
    $aes.Key = $key; $aes.IV = $bytes[0..15]
    $plain = $aes.CreateDecryptor().TransformFinalBlock($bytes, 16, $bytes.Length - 16)
    [Text.Encoding]::UTF8.GetString($plain)
}

$rows = foreach ($n in $doc.SelectNodes('//Node[@Type="Connection"]')) {
    [pscustomobject]@{
        Name     = $n.Name
        Host     = $n.Hostname
        Protocol = $n.Protocol
        User     = $n.Username
        Password = Unprotect-MrngPassword $n.Password
    }
}
$rows | Export-Csv -NoTypeInformation connections.csv
Write-Host "$($rows.Count) connections written"
