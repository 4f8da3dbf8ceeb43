$script = Join-Path $PSScriptRoot 'Tidy-Downloads.ps1'
$action = New-ScheduledTaskAction -Execute 'pwsh.exe' -Argument "-NoProfile -File `"$script`""
$trigger = New-ScheduledTaskTrigger -Weekly -DaysOfWeek Sunday -At 10am
Register-ScheduledTask -TaskName 'Tidy Downloads' -Action $action -Trigger $trigger -Description 'Moves old downloads to an Archive folder'
