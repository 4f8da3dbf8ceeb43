param([Parameter(Mandatory)][string]$Msi)
$work = Join-Path ([IO.Path]::GetTempPath()) ("msi-" + [guid]::NewGuid())
New-Item -ItemType Directory $work | Out-Null
try {
    Start-Process msiexec -ArgumentList '/a', "`"$Msi`"", '/qn', "TARGETDIR=`"$work`"" -Wait
    Get-ChildItem $work -Recurse -File | Select-Object FullName, Length | Format-Table -AutoSize
} finally {
    Remove-Item -LiteralPath $work -Recurse -Force
}
