-- A cloned kernel-builder project opened in a real headless Neovim with the upskilld plugin:
-- its build.toml names a host compiler inside the repository. Opening the .cu must run nothing
-- and say why (a diagnostic naming -ccbin, its rule, and `upskillctl trust`). Run by
-- editor.sh, which writes the project; TAP goes to $UPK_TAP_OUT.
local out = assert(io.open(os.getenv('UPK_TAP_OUT'), 'w'))
local n, failed = 0, 0
local TIMEOUT = tonumber(os.getenv('UPK_NVIM_TIMEOUT') or '90000')

local function check(name, ok, detail)
  n = n + 1
  out:write(string.format('%s %d - %s\n', ok and 'ok' or 'not ok', n, name))
  if not ok then
    failed = failed + 1
    for line in tostring(detail or ''):gmatch('[^\n]+') do
      out:write('# ' .. line .. '\n')
    end
  end
  out:flush()
end

local ok, err = xpcall(function()
  require('upskilld').setup({ cmd = { os.getenv('UPSKILLD'), '--lsp' } })
  local marker = os.getenv('UPK_MARKER')
  vim.cmd('edit ' .. os.getenv('UPK_PROJECT') .. '/kernel_src/evil_k.cu')
  check('the .cu of an untrusted project starts the daemon and attaches',
    vim.wait(TIMEOUT, function() return next(vim.lsp.buf_get_clients(0)) ~= nil end, 50),
    vim.bo.filetype)
  local refusal
  vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(0)) do
      if d.message:find('-ccbin', 1, true) then
        refusal = d
      end
    end
    return refusal ~= nil
  end, 100)
  check('a diagnostic names the refused -ccbin, its rule and how to trust the project',
    refusal and refusal.message:find('trust/run', 1, true) and
      refusal.message:find('upskillctl trust', 1, true),
    vim.inspect(vim.diagnostic.get(0)))
  -- Saving build.toml rechecks; the program still must not run.
  vim.cmd('write')
  vim.wait(3000, function() return false end, 100)
  check('the project\'s host compiler never ran', vim.fn.filereadable(marker) == 0, marker)
  -- A second clone: -Xcompiler values nvcc's shell would re-read (`;touch`, `>FILE`).
  local marker2, file2 = os.getenv('UPK_MARKER2'), os.getenv('UPK_FILE2')
  vim.cmd('edit ' .. os.getenv('UPK_PROJECT2') .. '/kernel_src/k.cu')
  local refused
  vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(0)) do
      if d.message:find('-Xcompiler', 1, true) then
        refused = d
      end
    end
    return refused ~= nil
  end, 100)
  check('a build.toml\'s -Xcompiler shell payload is refused with a diagnostic naming it',
    refused and refused.message:find('upskillctl trust', 1, true), vim.inspect(vim.diagnostic.get(0)))
  check('the payload ran nothing and wrote nothing',
    vim.fn.filereadable(marker2) == 0 and vim.fn.filereadable(file2) == 0, marker2 .. ' ' .. file2)
  local res = vim.lsp.buf_request_sync(0, 'textDocument/hover', vim.lsp.util.make_position_params(),
    10000)
  check('the daemon answers the next request at once', res ~= nil and next(res) ~= nil,
    vim.inspect(res))
end, debug.traceback)
if not ok then
  check('the test ran to the end', false, err)
end
out:write(string.format('1..%d\n', n))
out:close()
vim.cmd(failed == 0 and 'qall!' or 'cquit!')
