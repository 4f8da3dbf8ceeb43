param([switch]$Apply)

$root = $env:TEMP
if (-not $root -or -not (Test-Path $root) -or $root -eq $env:USERPROFILE) {
    throw "TEMP is not set to a temp folder: '$root'"
}

$old = Get-ChildItem -Path $root -File -Recurse -ErrorAction SilentlyContinue |
    Where-Object LastWriteTime -lt (Get-Date).AddDays(-1)
"{0:N0} MB in {1} files" -f (($old | Measure-Object Length -Sum).Sum / 1MB), $old.Count
$old | Remove-Item -Force -ErrorAction SilentlyContinue -WhatIf:(-not $Apply)
