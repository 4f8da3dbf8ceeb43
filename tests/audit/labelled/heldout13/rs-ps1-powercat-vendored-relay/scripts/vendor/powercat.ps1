# powercat (vendored copy, see upstream project)
function powercat { param($c, $p, $e) Write-Verbose "powercat $c $p $e" }
