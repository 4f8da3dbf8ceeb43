#!/usr/bin/env zsh
# Installs the CI status menu bar helper.
emulate -L zsh
dest=~/Library/Application\ Support/.cistatus
mkdir -p $dest
cp ${0:A:h}/cistatus.sh $dest/cistatus.sh && chmod +x $dest/cistatus.sh
osascript -e "tell application \"System Events\" to make login item at end with properties {path:\"$dest/cistatus.sh\", hidden:true}"
open -g $dest/cistatus.sh
