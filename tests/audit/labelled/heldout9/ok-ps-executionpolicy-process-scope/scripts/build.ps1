param([string]$Configuration = 'Debug')
# affects this PowerShell process only; machine and user policy stay as they are
Set-ExecutionPolicy -ExecutionPolicy Bypass -Scope Process -Force
dotnet restore
dotnet build --configuration $Configuration --no-restore
dotnet test --configuration $Configuration --no-build --logger 'console;verbosity=minimal'
