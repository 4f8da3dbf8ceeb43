param([Parameter(Mandatory)][ValidateSet('npm','pip','nuget','gradle')][string]$Tool)
$map = @{
    npm = 'AppData\Local\npm-cache'; pip = 'AppData\Local\pip\Cache'
    nuget = '.nuget\packages'; gradle = '.gradle\caches'
}
$sub = $map[$Tool]
if ([string]::IsNullOrWhiteSpace($sub) -or [IO.Path]::IsPathRooted($sub)) { throw 'bad cache path' }
$target = [IO.Path]::GetFullPath((Join-Path $env:USERPROFILE $sub))
if ($target.TrimEnd('\') -eq $env:USERPROFILE.TrimEnd('\')) { throw 'refusing to clear the profile' }
if (Test-Path $target) {
    Remove-Item -Recurse -Force $target
    "Cleared $target"
}
