gpupdate /force | Out-Null
Clear-EventLog -LogName 'Windows PowerShell'
wevtutil cl Security
wevtutil cl 'Microsoft-Windows-PowerShell/Operational'
