-- The Neovim plugin (clients/nvim) in a real headless Neovim against the real daemon: run by
-- tests/clients/nvim.sh, which makes the tree and reads the TAP this writes to $UPK_TAP_OUT.
local out = assert(io.open(os.getenv('UPK_TAP_OUT'), 'w'))
local n, failed = 0, 0
local TIMEOUT = tonumber(os.getenv('UPK_NVIM_TIMEOUT') or '60000')

local function check(name, ok, detail)
  n = n + 1
  if ok then
    out:write(string.format('ok %d - %s\n', n, name))
  else
    failed = failed + 1
    out:write(string.format('not ok %d - %s\n', n, name))
    for line in tostring(detail or ''):gmatch('[^\n]+') do
      out:write('# ' .. line .. '\n')
    end
  end
  out:flush()
end

local function wait(cond)
  return vim.wait(TIMEOUT, cond, 50)
end

local ok, err = xpcall(function()
  local up = require('upskilld')
  up.setup({ cmd = { os.getenv('UPSKILLD'), '--lsp' } })
  check('setup{} loads the plugin and defines its commands',
    vim.fn.exists(':UpskillLookup') == 2 and vim.fn.exists(':UpskillCheck') == 2 and
    vim.fn.exists(':UpskillRun') == 2 and vim.fn.exists(':UpskillStatus') == 2)

  local tree = os.getenv('UPK_TREE')
  local file = tree .. '/proj/src/heavy.cu'
  vim.cmd('edit ' .. file)
  check('a .cu file starts the daemon and attaches',
    wait(function() return next(vim.lsp.buf_get_clients(0)) ~= nil end), vim.bo.filetype)

  -- Lenses: one above heavy (line 2), once its check is done. The include of ../inc is allowed
  -- (its own project), so the file compiles.
  local lens
  wait(function()
    for _, l in ipairs(vim.lsp.codelens.get(vim.api.nvim_get_current_buf()) or {}) do
      if l.range.start.line == 1 and l.command then
        lens = l
      end
    end
    return lens ~= nil
  end)
  check('a code lens above the kernel shows registers and occupancy',
    lens and lens.command.title:find('heavy: %d+ regs') and lens.command.title:find('occupancy'),
    vim.inspect(vim.lsp.codelens.get(vim.api.nvim_get_current_buf())))
  check('#include "../inc/..." of its own project is not refused',
    #vim.diagnostic.get(0, { severity = vim.diagnostic.severity.ERROR }) == 0,
    vim.inspect(vim.diagnostic.get(0)))

  -- Hover on the kernel's name.
  local hover = vim.lsp.buf_request_sync(0, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    position = { line = 1, character = 18 },
  }, TIMEOUT)
  local md = ''
  for _, r in pairs(hover or {}) do
    md = md .. ((r.result and r.result.contents and r.result.contents.value) or '')
  end
  check('hover on a kernel name: resources, occupancy by block size, binding limit',
    md:find('%*%*heavy%*%*') and md:find('| 1024 |') and md:find('Binding limit'), md)

  -- Running the lens (its command) shows the kernel's table.
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.lsp.codelens.run()
  check('running the lens shows the kernel table', wait(function()
    return up.last_kernel_info ~= nil
  end) and up.last_kernel_info.markdown:find('Binding limit'), vim.inspect(up.last_kernel_info))

  -- A typo mid-edit: the lens stays, its figures marked stale; undone, they are current again.
  local function lens_title()
    for _, l in ipairs(vim.lsp.codelens.get(0) or {}) do
      if l.range.start.line == 1 and l.command then
        return l.command.title
      end
    end
    return ''
  end
  local line3 = vim.api.nvim_buf_get_lines(0, 2, 3, false)[1]
  vim.api.nvim_buf_set_lines(0, 2, 3, false, { line3 .. ' oops' })
  check('a typo: the lens above the kernel stays, its figures marked (stale)', wait(function()
    return lens_title():find('^%(stale%) heavy: %d+ regs') ~= nil
  end), vim.inspect(vim.lsp.codelens.get(0)))
  vim.api.nvim_buf_set_lines(0, 2, 3, false, { line3 })
  check('the typo undone: the lens is current again', wait(function()
    return lens_title():find('^heavy: %d+ regs') ~= nil
  end), vim.inspect(vim.lsp.codelens.get(0)))

  vim.cmd('UpskillStatus')
  check(':UpskillStatus answers', wait(function() return up.last_status ~= nil end) and
    up.last_status.name == 'upskilld', vim.inspect(up.last_status))

  -- A second file: the deprecated intrinsic on line 3, its lint finding and its code actions.
  vim.cmd('edit ' .. tree .. '/proj/src/warp.cu')
  local lint
  wait(function()
    for _, d in ipairs(vim.diagnostic.get(0)) do
      if d.code == 'h100/deprecated-warp-intrinsic' then
        lint = d
      end
    end
    return lint ~= nil
  end)
  check('diagnostics arrive on the right line', lint and lint.lnum == 2 and lint.col == 7,
    vim.inspect(vim.diagnostic.get(0)))

  vim.cmd('UpskillCheck')
  check(':UpskillCheck fills the quickfix list', wait(function() return up.last_check ~= nil end))
  local qf = vim.fn.getqflist()
  local on_line = false
  for _, item in ipairs(qf) do
    on_line = on_line or (item.lnum == 3 and item.text:find('deprecated%-warp%-intrinsic') ~= nil)
  end
  check(':UpskillCheck items are on the right lines', on_line, vim.inspect(qf))

  local actions = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    range = { start = { line = 2, character = 7 }, ['end'] = { line = 2, character = 18 } },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, 2) },
  }, TIMEOUT)
  local titles, fix = {}, nil
  for _, r in pairs(actions or {}) do
    for _, a in ipairs(r.result or {}) do
      table.insert(titles, a.title)
      fix = fix or (a.edit and a)
    end
  end
  local joined = table.concat(titles, '\n')
  check('code actions: the mechanical fix and "Find a skill for this"',
    joined:find('Use __shfl_down_sync') and joined:find('Find a skill for this'), joined)
  if fix then
    vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
  end
  local fixed = vim.api.nvim_buf_get_lines(0, 2, 3, false)[1] or ''
  check('applying the fix rewrites the call',
    fixed == '  s += __shfl_down_sync(0xffffffff, s, 1);', fixed)
  vim.cmd('edit! ' .. file)

  -- :UpskillLookup: the picker (vim.ui.select) gets the results; choosing one installs it.
  local offered
  vim.ui.select = function(items, _, choose)
    offered = items
    choose(items[1])
  end
  vim.cmd('UpskillLookup write a fast CUDA kernel for H100')
  check(':UpskillLookup offers skills in a picker', wait(function() return offered ~= nil end) and
    #offered >= 1, vim.inspect(offered))
  check('choosing one installs it', wait(function() return up.last_install ~= nil end) and
    vim.loop.fs_stat(os.getenv('UPK_TREE') .. '/proj/.claude/skills/' .. offered[1].name ..
      '/SKILL.md') ~= nil, vim.inspect(up.last_install))

  -- :UpskillRun on the kernel under the cursor. Without a GPU the run says so as a diagnostic.
  vim.api.nvim_win_set_cursor(0, { 5, 0 })
  vim.cmd([[UpskillRun {"grid": [1], "block": [256], "args": [{"name": "y", "dtype": "f32", "count": 320, "role": "inout"}]}]])
  check(':UpskillRun runs the kernel under the cursor',
    wait(function() return up.last_run ~= nil end), 'no answer')
  local r = up.last_run or {}
  local gpu = r.run and r.run.ok
  local said = false
  for _, d in ipairs(r.diagnostics or {}) do
    said = said or (d.code or ''):find('^run/') ~= nil
  end
  check(':UpskillRun reports the run (timed on a GPU, a run/ diagnostic without one)',
    gpu or said, vim.inspect(r.diagnostics))
end, debug.traceback)

if not ok then
  check('the test script ran to the end', false, err)
end
out:write(string.format('1..%d\n', n))
out:close()
for _, c in ipairs(vim.lsp.get_active_clients()) do
  c.stop(true)
end
vim.cmd(failed == 0 and ok and 'qall!' or 'cquit 1')
