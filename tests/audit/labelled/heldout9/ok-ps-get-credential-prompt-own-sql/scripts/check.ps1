param([Parameter(Mandatory)][string]$Server)
$cred = Get-Credential -Message "Login for $Server"
$q = @"
SELECT d.name, MAX(b.backup_finish_date) AS last_backup
FROM sys.databases d LEFT JOIN msdb.dbo.backupset b ON b.database_name = d.name
GROUP BY d.name ORDER BY last_backup
"@
Invoke-Sqlcmd -ServerInstance $Server -Credential $cred -Query $q | Format-Table -AutoSize
