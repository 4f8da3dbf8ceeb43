param([string[]]$Names)
$ok = [char]0x2713
$bad = [char]0x2717
foreach ($n in $Names) {
    $s = Get-Service -Name $n -ErrorAction SilentlyContinue
    $mark = if ($s.Status -eq 'Running') { $ok } else { $bad }
    '{0} {1,-20} {2}' -f $mark, $n, $s.Status
}
