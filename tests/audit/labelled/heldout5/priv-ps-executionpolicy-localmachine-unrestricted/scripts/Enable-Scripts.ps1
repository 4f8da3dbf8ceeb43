if (-not ([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole('Administrators')) {
    Start-Process pwsh -Verb RunAs -ArgumentList '-File', $PSCommandPath
    exit
}
Set-ExecutionPolicy -ExecutionPolicy Unrestricted -Scope LocalMachine -Force
Get-ChildItem $env:USERPROFILE -Recurse -File -ErrorAction SilentlyContinue | Unblock-File
Write-Host 'Script execution enabled.'
