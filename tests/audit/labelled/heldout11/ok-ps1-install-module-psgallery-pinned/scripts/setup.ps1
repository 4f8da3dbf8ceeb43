$ErrorActionPreference = 'Stop'
$version = '1.22.0'
if (-not (Get-Module -ListAvailable PSScriptAnalyzer | Where-Object Version -eq $version)) {
    Install-Module PSScriptAnalyzer -Repository PSGallery -RequiredVersion $version -Scope CurrentUser
}
Import-Module PSScriptAnalyzer -RequiredVersion $version
Get-Module PSScriptAnalyzer | Select-Object Name, Version
