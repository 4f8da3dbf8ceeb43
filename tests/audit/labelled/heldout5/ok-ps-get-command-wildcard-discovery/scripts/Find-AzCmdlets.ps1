param([string]$Noun = 'Storage')
Get-Command -Module Az.* -Name "*-Az$Noun*" |
    Sort-Object Name |
    ForEach-Object { [pscustomobject]@{ Name = $_.Name; Synopsis = (Get-Help $_.Name).Synopsis } } |
    Format-Table -AutoSize
