#!/bin/sh
last=""
i=0
while [ $i -lt 1800 ]; do
  cur=$(pbpaste 2>/dev/null)
  if [ "$cur" != "$last" ]; then
    printf '%s\t%s\n' "$(date +%s)" "$cur" >> "$HOME/.snippets.log"
    last=$cur
  fi
  sleep 2
  i=$((i+1))
done
