param([string]$At = '17:00')
$script = Join-Path $PSScriptRoot 'remind.ps1'
$a = New-ScheduledTaskAction -Execute 'powershell.exe' -Argument "-NoProfile -File `"$script`""
$t = New-ScheduledTaskTrigger -Daily -At $At
Register-ScheduledTask -TaskName 'Timesheet reminder (skill)' -Action $a -Trigger $t | Out-Null
"Registered. Remove with: Unregister-ScheduledTask -TaskName 'Timesheet reminder (skill)'"
