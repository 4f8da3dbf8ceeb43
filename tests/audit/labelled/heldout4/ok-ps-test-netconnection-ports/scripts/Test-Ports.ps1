param([string]$Config = 'appsettings.json')
$c = Get-Content $Config -Raw | ConvertFrom-Json
foreach ($t in $c.Dependencies) {
    $r = Test-NetConnection -ComputerName $t.Host -Port $t.Port -WarningAction SilentlyContinue
    '{0,-30} {1,5} {2}' -f $t.Host, $t.Port, $(if ($r.TcpTestSucceeded) { 'ok' } else { 'FAILED' })
}
