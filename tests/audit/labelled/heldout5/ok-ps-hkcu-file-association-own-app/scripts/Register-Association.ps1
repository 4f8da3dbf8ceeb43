$code = (Get-Command code -ErrorAction Stop).Source
New-Item -Path 'HKCU:\Software\Classes\.mdx' -Force | Set-ItemProperty -Name '(default)' -Value 'mdxfile'
New-Item -Path 'HKCU:\Software\Classes\mdxfile\shell\open\command' -Force |
    Set-ItemProperty -Name '(default)' -Value "`"$code`" `"%1`""
Write-Host '.mdx files now open in VS Code.'
