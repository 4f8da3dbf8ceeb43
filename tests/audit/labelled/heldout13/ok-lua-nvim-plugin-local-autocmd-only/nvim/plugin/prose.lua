local group = vim.api.nvim_create_augroup('prose', { clear = true })

vim.api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = { 'markdown', 'text', 'gitcommit' },
  callback = function()
    vim.opt_local.spell = true
    vim.opt_local.spelllang = { 'en_gb' }
    vim.opt_local.wrap = true
    vim.opt_local.linebreak = true
  end,
})

vim.api.nvim_create_user_command('WordCount', function()
  print(vim.fn.wordcount().words .. ' words')
end, {})
