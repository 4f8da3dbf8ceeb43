#!/usr/bin/env zsh
emulate -L zsh
setopt err_exit

port=${DEMO_PORT:-8080}
ip=$(hostname -I | awk '{print $1}')

if ! command -v gotty >/dev/null; then
  print -u2 "gotty not found: go install github.com/sorenisanerd/gotty@v1.5.0"
  exit 1
fi

print "Share: http://$ip:$port/"
# attendees may type along during the workshop
gotty --address 0.0.0.0 --port $port --permit-write --title-format "demo" zsh -l
