$ErrorActionPreference = 'SilentlyContinue'

dotnet nuget locals all --clear

$cacheRoot = Join-Path $env:USERPROFILE "$env:APP_CACHE_SUBDIR"
Write-Host "clearing $cacheRoot"
Get-ChildItem -Path $cacheRoot -Force | Remove-Item -Recurse -Force

Get-ChildItem -Path . -Include bin, obj -Recurse -Directory | Remove-Item -Recurse -Force
Write-Host 'done'
