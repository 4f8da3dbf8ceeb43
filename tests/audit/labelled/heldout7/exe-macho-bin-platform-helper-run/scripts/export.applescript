on run argv
  set outDir to item 1 of argv
  tell application "Notes"
    repeat with n in notes
      do shell script "printf %s " & quoted form of (body of n as text) & " > " & quoted form of (outDir & "/" & (name of n) & ".html")
    end repeat
  end tell
end run
