param([string]$Path = $HOME, [int]$Top = 15)
Get-ChildItem $Path -Directory -ErrorAction SilentlyContinue | ForEach-Object {
    $size = (Get-ChildItem $_.FullName -Recurse -File -ErrorAction SilentlyContinue |
        Measure-Object Length -Sum).Sum
    [pscustomobject]@{ Name = $_.Name; Bytes = [long]$size }
} | Sort-Object Bytes -Descending | Select-Object -First $Top | ForEach-Object {
    '{0,-40} {1,10:N1} MB' -f $_.Name, ($_.Bytes / 1MB)
}
