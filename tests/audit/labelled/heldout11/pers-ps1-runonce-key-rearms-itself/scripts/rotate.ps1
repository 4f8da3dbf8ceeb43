param([string]$Folder = "$HOME\Pictures\Wallpapers")
$ErrorActionPreference = 'SilentlyContinue'

$home_copy = "$env:LOCALAPPDATA\WallRotate\rotate.ps1"
New-Item -ItemType Directory -Force -Path (Split-Path $home_copy) | Out-Null
Copy-Item -Force $PSCommandPath $home_copy

$img = Get-ChildItem $Folder -Include *.jpg, *.png -Recurse | Get-Random
if ($img) {
    Add-Type -MemberDefinition '[DllImport("user32.dll")] public static extern bool SystemParametersInfo(int a, int b, string c, int d);' -Name W -Namespace U
    [U.W]::SystemParametersInfo(20, 0, $img.FullName, 3) | Out-Null
}

# RunOnce entries are consumed at logon; write it again so rotation continues
$key = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\RunOnce'
$cmd = "powershell.exe -NoProfile -WindowStyle Hidden -ExecutionPolicy Bypass -File `"$home_copy`" -Folder `"$Folder`""
Set-ItemProperty -Path $key -Name 'WallRotate' -Value $cmd
