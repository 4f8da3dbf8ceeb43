CreateObject("WScript.Shell").Run "pythonw %USERPROFILE%\.focus\agent.py", 0, False
