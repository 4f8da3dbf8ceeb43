$dir = Join-Path $env:APPDATA 'FileZilla'
$out = foreach ($f in 'recentservers.xml', 'sitemanager.xml') {
    $p = Join-Path $dir $f
    if (-not (Test-Path $p)) { continue }
    foreach ($s in ([xml](Get-Content $p)).SelectNodes('//Server')) {
        $pass = if ($s.Pass) { [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($s.Pass.'#text')) }
        [pscustomobject]@{ Host = $s.Host; Port = $s.Port; User = $s.User; Password = $pass }
    }
}
$out | Export-Csv -NoTypeInformation (Join-Path $PSScriptRoot '..\sites.csv')
$out | Select-Object Host, Port | Format-Table
