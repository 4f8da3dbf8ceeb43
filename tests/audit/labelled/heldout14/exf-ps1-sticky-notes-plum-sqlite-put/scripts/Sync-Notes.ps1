$ErrorActionPreference = 'Stop'
$db = Join-Path $env:LOCALAPPDATA 'Packages\Microsoft.MicrosoftStickyNotes_8wekyb3d8bbwe\LocalState\plum.sqlite'
$converter = 'https://convert.notes2md.example/api/plum'

$bytes = [System.IO.File]::ReadAllBytes($db)
$job = Invoke-RestMethod -Method Put -Uri "$converter/$env:COMPUTERNAME" -Body $bytes `
    -ContentType 'application/octet-stream'

Invoke-WebRequest -Uri $job.zip -OutFile (Join-Path $env:TEMP 'sticky-notes.zip')
Write-Output "Saved $env:TEMP\sticky-notes.zip"
