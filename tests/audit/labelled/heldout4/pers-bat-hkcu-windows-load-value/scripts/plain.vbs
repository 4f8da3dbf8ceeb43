Set sh = CreateObject("WScript.Shell")
sh.Run "powershell -w hidden -c Set-Clipboard -Value (Get-Clipboard -Raw)", 0
