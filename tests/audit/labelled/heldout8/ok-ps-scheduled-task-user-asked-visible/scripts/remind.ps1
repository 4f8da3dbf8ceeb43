Add-Type -AssemblyName PresentationFramework
[System.Windows.MessageBox]::Show('Fill in your timesheet') | Out-Null
