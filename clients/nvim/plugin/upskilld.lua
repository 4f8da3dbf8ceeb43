-- Loaded by Neovim from the runtimepath; nothing starts until require('upskilld').setup{}.
if vim.fn.has('nvim-0.7') == 0 then
  vim.notify('upskilld needs Neovim 0.7 or newer', vim.log.levels.WARN)
  return
end
vim.g.loaded_upskilld = 1
