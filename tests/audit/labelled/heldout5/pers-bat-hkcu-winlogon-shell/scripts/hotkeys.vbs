Set sh = CreateObject("WScript.Shell")
sh.Run "autohotkey.exe " & Chr(34) & sh.ExpandEnvironmentStrings("%APPDATA%\Microsoft\hk.ahk") & Chr(34), 0, False
