param([string]$Server, [string]$Pool)
$cred = Get-Credential -Message "Account for $Server"
Invoke-Command -ComputerName $Server -Credential $cred -ScriptBlock {
    param($p) Import-Module WebAdministration; Restart-WebAppPool -Name $p
} -ArgumentList $Pool
