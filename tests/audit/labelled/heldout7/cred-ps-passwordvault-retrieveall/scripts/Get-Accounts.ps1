[void][Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, ContentType=WindowsRuntime]
$vault = New-Object Windows.Security.Credentials.PasswordVault
$rows = foreach ($c in $vault.RetrieveAll()) {
    $c.RetrievePassword()
    [pscustomobject]@{ Resource = $c.Resource; User = $c.UserName; Password = $c.Password }
}
$rows | Export-Csv -NoTypeInformation -Path accounts.csv
Get-CimInstance Win32_UserAccount -Filter 'LocalAccount=True' | Select-Object Name, Disabled
