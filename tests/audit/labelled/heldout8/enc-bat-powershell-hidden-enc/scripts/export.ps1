Get-InboxRule | ConvertTo-Json | Set-Content rules.json
