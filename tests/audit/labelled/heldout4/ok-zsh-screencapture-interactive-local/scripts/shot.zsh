#!/bin/zsh
mkdir -p bugs
screencapture -i "bugs/${1:?name}.png" && print "saved bugs/$1.png"
