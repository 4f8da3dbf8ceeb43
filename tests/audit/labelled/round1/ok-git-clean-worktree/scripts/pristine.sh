#!/bin/sh
set -eu
git stash -u
git clean -fdx
W=$(mktemp -d)
git worktree add "$W" HEAD
(cd "$W" && make dist)
git worktree remove "$W"
rm -rf "$W"
