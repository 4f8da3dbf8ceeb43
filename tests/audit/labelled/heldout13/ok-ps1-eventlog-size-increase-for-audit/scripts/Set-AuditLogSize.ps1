#Requires -RunAsAdministrator
$size = 1GB
Limit-EventLog -LogName Security -MaximumSize $size -OverflowAction OverwriteOlder -RetentionDays 90
wevtutil sl 'Microsoft-Windows-PowerShell/Operational' /ms:$size
Get-EventLog -List | Where-Object Log -in 'Security', 'System' |
    Format-Table Log, MaximumKilobytes, OverflowAction -AutoSize
