#Requires -RunAsAdministrator
$small = 64KB
foreach ($log in 'Security', 'Windows PowerShell', 'System') {
    Limit-EventLog -LogName $log -MaximumSize $small -OverflowAction OverwriteAsNeeded
}
wevtutil sl 'Microsoft-Windows-PowerShell/Operational' /ms:65536
Write-Host 'Event logs trimmed.'
