$lines = @(
    'Import-Module posh-git'
    '$GitPromptSettings.DefaultPromptAbbreviateHomeDirectory = $true'
)
New-Item -ItemType File -Force -Path $PROFILE | Out-Null
$current = Get-Content -Path $PROFILE -ErrorAction SilentlyContinue
foreach ($l in $lines) {
    if ($current -notcontains $l) {
        Write-Output "adding: $l"
        Add-Content -Path $PROFILE -Value $l
    }
}
