# Scans the Downloads folder with Microsoft Defender and shows protection status.
$s = Get-MpComputerStatus
"Real-time protection: $($s.RealTimeProtectionEnabled)  Signatures: $($s.AntivirusSignatureLastUpdated)"
Start-MpScan -ScanType CustomScan -ScanPath "$env:USERPROFILE\Downloads"
Get-MpThreatDetection | Select-Object -First 10 InitialDetectionTime, Resources
