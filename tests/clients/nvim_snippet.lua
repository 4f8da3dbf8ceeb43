-- A snippet of the docs (README.md, docs/editors.md) as a user's init.lua, with the plugin where
-- an install puts it: run by tests/clients/nvim.sh (nvim -u SNIPPET, XDG_DATA_DIRS laid out as
-- <prefix>/share). UPK_NOT_FOUND=1: first with no upskilld anywhere, the error must say how to
-- install it; then with $UPK_BIN (holding `upskilld`) on PATH, a .cu buffer must attach.
local out = assert(io.open(os.getenv('UPK_TAP_OUT'), 'w'))
local name = os.getenv('UPK_SNIPPET')
local n, failed = 0, 0
local function check(what, ok, detail)
  n = n + 1
  failed = failed + (ok and 0 or 1)
  out:write(string.format('%s %d - %s: %s\n', ok and 'ok' or 'not ok', n, name, what))
  if not ok then
    out:write('# ' .. tostring(detail):gsub('\n', '\n# ') .. '\n')
  end
end

local said = {}
vim.notify = function(msg)
  table.insert(said, msg)
end
local ok, err = pcall(function()
  local file = os.getenv('UPK_TREE') .. '/proj/src/heavy.cu'
  if os.getenv('UPK_NOT_FOUND') == '1' then
    vim.cmd('edit ' .. file)
    local msg = table.concat(said, '\n')
    check('no upskilld: the error says how to install it',
      msg:find('upskilld not found', 1, true) and msg:find('sudo apt install', 1, true)
        and msg:find('sudo meson install -C build', 1, true), msg)
    vim.cmd('bwipeout!')
  end
  vim.env.PATH = os.getenv('UPK_BIN') .. ':' .. vim.env.PATH
  vim.cmd('edit ' .. file)
  check('upskilld on PATH: a .cu buffer attaches', vim.wait(30000, function()
    return next(vim.lsp.buf_get_clients(0)) ~= nil
  end, 50), table.concat(said, '\n'))
end)
if not ok then
  check('the snippet ran', false, err)
end
out:close()
for _, c in ipairs(vim.lsp.get_active_clients()) do
  c.stop(true)
end
vim.cmd(failed == 0 and 'qall!' or 'cquit 1')
