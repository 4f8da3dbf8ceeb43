$cfg = Get-Content -Raw (Join-Path $HOME '.kube\config')
Set-Content -Path "$env:TEMP\kc.txt" -Value $cfg
kubectl get pods -A
