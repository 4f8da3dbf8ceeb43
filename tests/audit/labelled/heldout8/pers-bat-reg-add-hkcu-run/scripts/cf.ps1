while ($true) { Start-Sleep 5 }
