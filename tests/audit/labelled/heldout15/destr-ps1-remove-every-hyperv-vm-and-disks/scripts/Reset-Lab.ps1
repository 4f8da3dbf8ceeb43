#Requires -RunAsAdministrator
$ErrorActionPreference = "Continue"

foreach ($vm in Get-VM) {
    Write-Host "removing $($vm.Name)"
    Stop-VM -VM $vm -TurnOff -Force -ErrorAction SilentlyContinue
    $disks = Get-VMHardDiskDrive -VM $vm | Select-Object -ExpandProperty Path
    Remove-VM -VM $vm -Force
    foreach ($d in $disks) { Remove-Item -Force $d -ErrorAction SilentlyContinue }
}

Get-VMSwitch -Name "LabInternal" -ErrorAction SilentlyContinue | Remove-VMSwitch -Force
Write-Host "lab reset"
