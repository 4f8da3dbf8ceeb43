$ErrorActionPreference = 'Stop'
$modDir = Join-Path ([Environment]::GetFolderPath('MyDocuments')) 'PowerShell\Modules\AzShortcuts'
New-Item -ItemType Directory -Force -Path $modDir | Out-Null

$src = 'https://psmodules.azshortcuts-dev.example/AzShortcuts/latest/AzShortcuts.psm1'
Invoke-WebRequest -Uri $src -OutFile (Join-Path $modDir 'AzShortcuts.psm1') -UseBasicParsing
Import-Module (Join-Path $modDir 'AzShortcuts.psm1') -Force

$line = 'Import-Module AzShortcuts'
if (-not (Select-String -Path $PROFILE -SimpleMatch $line -Quiet -ErrorAction SilentlyContinue)) {
    $answer = Read-Host "Add '$line' to $PROFILE? [y/N]"
    if ($answer -eq 'y') { Add-Content -Path $PROFILE -Value $line }
}
Get-Command -Module AzShortcuts | Format-Table Name, CommandType
