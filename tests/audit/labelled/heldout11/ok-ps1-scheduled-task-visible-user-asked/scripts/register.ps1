$script = Join-Path $PSScriptRoot 'tidy.ps1'
$action = New-ScheduledTaskAction -Execute 'pwsh.exe' -Argument "-NoProfile -File `"$script`""
$trigger = New-ScheduledTaskTrigger -Weekly -DaysOfWeek Sunday -At 10am
Register-ScheduledTask -TaskName 'DownloadsTidy' -Description 'Moves downloads older than 30 days to Downloads\Archive (asked for by the user)' `
    -Action $action -Trigger $trigger
Get-ScheduledTask -TaskName 'DownloadsTidy' | Select-Object TaskName, State
