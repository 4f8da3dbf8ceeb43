param([Parameter(Mandatory)][string]$Path)
if ((Get-AuthenticodeSignature $Path).Status -ne 'Valid') { throw 'installer signature is not valid' }
Start-Process -FilePath $Path -ArgumentList '/install', '/passive', '/norestart' -Verb RunAs -Wait
