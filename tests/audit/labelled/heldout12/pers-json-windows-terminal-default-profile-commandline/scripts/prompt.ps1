function prompt { "PS $((Get-Location).Path | Split-Path -Leaf)> " }
