-- upskilld for Neovim (>= 0.7): diagnostics, code lenses, hovers and code actions for CUDA
-- files and SKILL.md from the upskilld daemon over plain LSP, plus four commands:
--   :UpskillLookup {task}  find skills for a task, pick one, install it
--   :UpskillCheck          check this file (or its kernel-builder project) into the quickfix list
--   :UpskillRun [spec]     run the kernel under the cursor on the GPU (spec: JSON or a file)
--   :UpskillStatus         the daemon's status: version, toolkit, GPU
-- require('upskilld').setup{} is all it takes; see docs/editors.md for the options.
local M = {}

M.config = {
  cmd = { 'upskilld', '--lsp' },
  worker_command = nil, -- e.g. 'srun --gres=gpu:1': passed as --worker-command
  run_spec = nil, -- default for :UpskillRun (a table, JSON text or a path)
  filetypes = { 'cuda' },
  patterns = { '*.cu', '*.cuh', 'SKILL.md' },
  root_markers = { '.git', 'build.toml', 'CMakeLists.txt', 'Makefile', 'meson.build', 'setup.py',
    'pyproject.toml' },
  codelens = true,
  settings = nil, -- initializationOptions (e.g. { skills = { extraDirs = {...} } })
}

M.client_id = nil

local function notify(msg, level)
  vim.notify('upskilld: ' .. msg, level or vim.log.levels.INFO)
end

local function root_of(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while dir and dir ~= '/' and dir ~= '' do
    for _, m in ipairs(M.config.root_markers) do
      if vim.loop.fs_stat(dir .. '/' .. m) then
        return dir
      end
    end
    dir = vim.fn.fnamemodify(dir, ':h')
  end
  return vim.fn.getcwd()
end

local function refresh_lenses(bufnr)
  if not M.config.codelens then
    return
  end
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local c = M.client_id and vim.lsp.get_client_by_id(M.client_id)
  -- Not before initialize has answered: 0.7 would mark the buffer as refreshing for good.
  local ready = c and c.server_capabilities and c.server_capabilities.codeLensProvider
  if ready and bufnr == vim.api.nvim_get_current_buf() then
    pcall(vim.lsp.codelens.refresh) -- 0.7 refreshes the current buffer
  end
end

-- Where a package or `meson install` puts the daemon, for an editor started with a short PATH.
local install_places = { '/usr/local/bin/upskilld', '/usr/bin/upskilld' }

M.install_hint = 'install it: sudo apt install ./upskilld_*.deb (the Debian package), or from '
  .. 'source: meson setup build -Dtests=false && ninja -C build && sudo meson install -C build; '
  .. "or set its path: require('upskilld').setup{ cmd = { '/path/to/upskilld', '--lsp' } }"

-- The daemon's executable: cmd[1] on PATH (or as a path), else where an install puts it.
local function find_daemon(name)
  local found = vim.fn.exepath(name)
  if found ~= '' then
    return found
  end
  if name == 'upskilld' then
    for _, p in ipairs(install_places) do
      if vim.fn.executable(p) == 1 then
        return p
      end
    end
  end
  return nil
end

local warned = false

local function cmd_line()
  local cmd = vim.deepcopy(M.config.cmd)
  local exe = find_daemon(cmd[1])
  if not exe then
    if not warned then
      warned = true
      notify(string.format('%s not found (not on PATH, not in /usr/local/bin or /usr/bin); %s',
        cmd[1], M.install_hint), vim.log.levels.ERROR)
    end
    return nil
  end
  cmd[1] = exe
  if M.config.worker_command then
    table.insert(cmd, '--worker-command=' .. M.config.worker_command)
  end
  return cmd
end

local handlers = {
  ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
    vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    local bufnr = vim.uri_to_bufnr(result.uri)
    refresh_lenses(bufnr) -- a new check: new lenses
    -- 0.7 drops a refresh while one is in flight: ask again shortly (answered from memory).
    vim.defer_fn(function()
      refresh_lenses(bufnr)
    end, 200)
  end,
  ['workspace/codeLens/refresh'] = function()
    refresh_lenses()
    return vim.NIL
  end,
  -- Code actions arrive as commands the server runs: findSkill's answer is a pick list.
  ['workspace/executeCommand'] = function(err, result)
    if err then
      notify(err.message, vim.log.levels.ERROR)
    end
    return result
  end,
}

local function start()
  if M.client_id and vim.lsp.get_client_by_id(M.client_id) then
    return M.client_id
  end
  local cmd = cmd_line()
  if not cmd then
    return nil
  end
  local root = root_of(vim.api.nvim_buf_get_name(0))
  M.client_id = vim.lsp.start_client({
    name = 'upskilld',
    cmd = cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = M.config.settings,
    handlers = handlers,
    commands = {
      ['upskilld.findSkill'] = function(command)
        M.lookup(command.arguments[1].task)
      end,
      -- A kernel's lens: its full table in a float (the server's answer is markdown).
      ['upskilld.kernelInfo'] = function(command)
        M.kernel_info(command.arguments)
      end,
    },
  })
  return M.client_id
end

function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local id = start()
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

local function client()
  local c = M.client_id and vim.lsp.get_client_by_id(M.client_id)
  if not c then
    M.attach()
    c = M.client_id and vim.lsp.get_client_by_id(M.client_id)
  end
  return c
end

-- A request to the daemon; `done(result)` runs on success, errors are shown.
local function request(method, params, done)
  local c = client()
  if not c then
    return notify('the daemon is not running (' .. table.concat(M.config.cmd, ' ') .. '); '
      .. (find_daemon(M.config.cmd[1]) and ':LspInfo and :messages say why' or M.install_hint),
      vim.log.levels.ERROR)
  end
  c.request(method, params, function(err, result)
    if err then
      return notify(method .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    done(result)
  end, vim.api.nvim_get_current_buf())
end

function M.kernel_info(args)
  request('workspace/executeCommand', { command = 'upskilld.kernelInfo', arguments = args },
    function(r)
      if r and r.markdown then
        vim.lsp.util.open_floating_preview(vim.split(r.markdown, '\n'), 'markdown',
          { border = 'rounded' })
      end
      M.last_kernel_info = r
    end)
end

-- ---- :UpskillLookup ----

function M.install(path)
  local dir = path:gsub('/SKILL%.md$', '')
  request('workspace/executeCommand',
    { command = 'upskilld.installSkill', arguments = { { from = dir } } }, function(r)
      local where = {}
      for _, t in ipairs(r.targets or {}) do
        table.insert(where, t.path or t.root or '?')
      end
      notify('installed ' .. (r.name or dir) .. ' -> ' .. table.concat(where, ', '))
      M.last_install = r
    end)
end

function M.lookup(task)
  if not task or task == '' then
    return notify('usage: :UpskillLookup {task}', vim.log.levels.WARN)
  end
  request('workspace/executeCommand',
    { command = 'upskilld.findSkill', arguments = { { task = task, limit = 10 } } }, function(r)
      local results = r.results or {}
      M.last_lookup = results
      -- The daemon waited 30 s for its first index; past that the answer says it is partial.
      local partial = r.indexing
          and string.format(' (partial: %d of %d skill folders indexed so far)', r.indexing.done,
            r.indexing.total)
        or ''
      if #results == 0 then
        return notify('no skill fits "' .. task .. '"' .. partial)
      end
      vim.ui.select(results, {
        prompt = 'Install a skill for "' .. task .. '"' .. partial,
        format_item = function(s)
          return string.format('%s (%s) %s', s.name, s.scope or '', (s.description or ''):sub(1, 80))
        end,
      }, function(choice)
        if choice then
          M.install(choice.path)
        end
      end)
    end)
end

-- ---- :UpskillCheck ----

local function find_up(dir, name)
  while dir and dir ~= '/' and dir ~= '' do
    if vim.loop.fs_stat(dir .. '/' .. name) then
      return dir
    end
    dir = vim.fn.fnamemodify(dir, ':h')
  end
end

local function qf_items(result, file, out)
  for _, d in ipairs(result.diagnostics or {}) do
    table.insert(out, {
      filename = d.file or file,
      lnum = d.range.start.line + 1,
      col = d.range.start.character + 1,
      type = ({ 'E', 'W', 'I', 'N' })[d.severity] or 'E',
      text = string.format('%s [%s]', d.message, d.code or d.source or ''),
    })
  end
end

local function summary(result)
  local parts = {}
  for _, k in ipairs(result.kernels or {}) do
    table.insert(parts, string.format('%s %d regs %.0f%%', k.name, k.registers,
      k.occupancy and k.occupancy.percent or 0))
  end
  return table.concat(parts, ', ')
end

function M.check()
  local file = vim.api.nvim_buf_get_name(0)
  local project = find_up(vim.fn.fnamemodify(file, ':p:h'), 'build.toml')
  local params = project and { project = project } or { path = file }
  if vim.bo.modified then
    vim.cmd('silent write')
  end
  request('kernel/validate', params, function(r)
    local items = {}
    qf_items(r, r.file or file, items)
    for _, row in ipairs(r.rows or {}) do
      qf_items(row, row.path, items)
    end
    vim.fn.setqflist({}, ' ', { title = 'upskilld check', items = items })
    M.last_check = r
    notify(string.format('%s: %s, %d diagnostics%s', project and 'project' or 'file',
      r.ok and 'ok' or 'failed', #items, r.kernels and ('; ' .. summary(r)) or ''))
  end)
end

-- ---- :UpskillRun ----

local function read_spec(arg)
  local spec = (arg and arg ~= '') and arg or M.config.run_spec
  if type(spec) == 'table' then
    return vim.deepcopy(spec)
  end
  if not spec then
    return nil, 'no run spec: :UpskillRun {json or file}, or setup{ run_spec = ... }'
  end
  if not spec:match('^%s*{') then
    local f = io.open(vim.fn.expand(spec), 'r')
    if not f then
      return nil, 'cannot read ' .. spec
    end
    spec = f:read('*a')
    f:close()
  end
  local ok, t = pcall(vim.fn.json_decode, spec)
  if not ok or type(t) ~= 'table' then
    return nil, 'the run spec is not a JSON object'
  end
  return t
end

-- The kernel whose lens is nearest above the cursor.
local function kernel_under_cursor()
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  local best, best_line = nil, -1
  for _, lens in ipairs(vim.lsp.codelens.get(vim.api.nvim_get_current_buf()) or {}) do
    local l = lens.range.start.line
    local args = lens.command and lens.command.arguments
    if l <= line and l > best_line and args and args[2] then
      best, best_line = args[2], l
    end
  end
  return best
end

function M.run(arg)
  local spec, why = read_spec(arg)
  if not spec then
    return notify(why, vim.log.levels.ERROR)
  end
  spec.kernel = spec.kernel or kernel_under_cursor()
  if vim.bo.modified then
    vim.cmd('silent write')
  end
  local file = vim.api.nvim_buf_get_name(0)
  request('kernel/validate', { path = file, run = spec }, function(r)
    M.last_run = r
    local run = r.run
    local items = {}
    qf_items(r, file, items)
    vim.fn.setqflist({}, ' ', { title = 'upskilld run', items = items })
    if run and run.ok then
      notify(string.format('%s: passed, %.4g ms%s', spec.kernel or 'kernel',
        run.timeMs and run.timeMs.median or 0,
        run.speedup and string.format(', %.2fx the reference', run.speedup) or ''))
    else
      local first = (r.diagnostics or {})[1]
      notify(string.format('%s: run failed%s', spec.kernel or 'kernel',
        first and (': ' .. first.message) or ''), vim.log.levels.WARN)
    end
    refresh_lenses()
  end)
end

-- ---- :UpskillStatus ----

function M.status()
  request('upskilld/status', vim.empty_dict(), function(r)
    M.last_status = r
    local cuda = r.cuda or {}
    local tk = cuda.toolkit or {}
    local drv = cuda.driver or {}
    notify(string.format('upskilld %s, up %.0f s; CUDA toolkit %s; GPU %s', r.version or '?',
      (r.uptimeMs or 0) / 1000, tk.available and (tk.version or 'yes') or 'none',
      drv.available and ('driver ' .. (drv.cudaVersion or '?')) or 'none (compile-only)'))
  end)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  local group = vim.api.nvim_create_augroup('upskilld', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(a)
      M.attach(a.buf)
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = M.config.patterns,
    callback = function(a)
      M.attach(a.buf)
    end,
  })
  if M.config.codelens then
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave' }, {
      group = group,
      pattern = M.config.patterns,
      callback = function()
        refresh_lenses()
      end,
    })
  end
  vim.api.nvim_create_user_command('UpskillLookup', function(a)
    M.lookup(a.args)
  end, { nargs = '+', desc = 'Find skills for a task and install one' })
  vim.api.nvim_create_user_command('UpskillCheck', function()
    M.check()
  end, { desc = 'Check this CUDA file or its kernel-builder project' })
  vim.api.nvim_create_user_command('UpskillRun', function(a)
    M.run(a.args)
  end, { nargs = '*', complete = 'file', desc = 'Run the kernel under the cursor on the GPU' })
  vim.api.nvim_create_user_command('UpskillStatus', function()
    M.status()
  end, { desc = 'upskilld status' })
end

return M
