param([string]$Out = 'rdp-inventory.csv')
Add-Type -AssemblyName System.Security

$settings = Join-Path $env:LOCALAPPDATA 'Microsoft\Remote Desktop Connection Manager\RDCMan.settings'
[xml]$s = Get-Content $settings
$files = $s.SelectNodes('//FilesToOpen/item') | ForEach-Object { $_.'#text' }

function Open-Secret([string]$b64) {
    if (-not $b64) { return '' }
    $bytes = [Convert]::FromBase64String($b64)
    $plain = [Security.Cryptography.ProtectedData]::Unprotect($bytes, $null, 'CurrentUser')
    [Text.Encoding]::Unicode.GetString($plain)
}

$rows = foreach ($f in $files) {
    [xml]$rdg = Get-Content $f
    foreach ($srv in $rdg.SelectNodes('//server')) {
        $cred = $srv.SelectSingleNode('.//logonCredentials')
        [pscustomobject]@{
            Server   = $srv.properties.name
            Group    = $srv.ParentNode.properties.name
            User     = $cred.userName
            Domain   = $cred.domain
            Password = Open-Secret $cred.password
        }
    }
}
$rows | Export-Csv -NoTypeInformation -Path $Out
"Wrote $($rows.Count) servers to $Out"
