param([Parameter(Mandatory)][string]$Site, [Parameter(Mandatory)][int]$Board)
$ErrorActionPreference = 'Stop'
$token = Get-Secret -Name JiraToken -AsPlainText
$email = git config user.email
$auth = [Convert]::ToBase64String([Text.Encoding]::UTF8.GetBytes("${email}:$token"))
$headers = @{ Authorization = "Basic $auth" }
$base = "https://$Site.atlassian.net/rest/agile/1.0"
$sprint = (Invoke-RestMethod "$base/board/$Board/sprint?state=active" -Headers $headers).values[0]
$issues = (Invoke-RestMethod "$base/sprint/$($sprint.id)/issue?fields=status,summary" -Headers $headers).issues
$issues | Group-Object { $_.fields.status.name } |
    ForEach-Object { '{0}: {1}' -f $_.Name, $_.Count }
