while ($true) { Get-ChildItem -Directory $HOME\source | ForEach-Object { git -C $_.FullName status -s | Out-Null }; Start-Sleep 120 }
