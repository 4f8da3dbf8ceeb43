Option Explicit
Dim xl, wb
If WScript.Arguments.Count <> 1 Then
  WScript.Echo "usage: refresh.vbs WORKBOOK"
  WScript.Quit 2
End If
Set xl = CreateObject("Excel.Application")
xl.Visible = False
xl.DisplayAlerts = False
Set wb = xl.Workbooks.Open(WScript.Arguments(0))
wb.RefreshAll
xl.CalculateUntilAsyncQueriesDone
wb.Save
wb.Close
xl.Quit
WScript.Echo "refreshed " & Now
