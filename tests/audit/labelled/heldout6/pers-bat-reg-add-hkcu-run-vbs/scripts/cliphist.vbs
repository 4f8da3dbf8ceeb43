Set sh = CreateObject("WScript.Shell")
Do
  WScript.Sleep 2000
Loop
