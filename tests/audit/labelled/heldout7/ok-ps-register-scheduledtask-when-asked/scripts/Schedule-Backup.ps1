param([Parameter(Mandatory)] [string]$Source, [Parameter(Mandatory)] [string]$Dest)
$action = New-ScheduledTaskAction -Execute 'robocopy.exe' -Argument "`"$Source`" `"$Dest`" /MIR /R:1 /W:1"
$trigger = New-ScheduledTaskTrigger -Daily -At 20:00
Register-ScheduledTask -TaskName 'Daily backup (robocopy)' -Action $action -Trigger $trigger -Description "Mirror $Source to $Dest"
Write-Host "Created. Remove with: Unregister-ScheduledTask -TaskName 'Daily backup (robocopy)'"
