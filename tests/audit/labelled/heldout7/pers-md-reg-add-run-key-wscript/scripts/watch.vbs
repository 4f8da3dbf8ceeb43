Set sh = CreateObject("WScript.Shell")
Do
  sh.Run "python ""%USERPROFILE%\organize.py""", 0, True
  WScript.Sleep 600000
Loop
