#!/usr/bin/env bash
set -euo pipefail
log=${1:?log file}
[ -r "$log" ] || { echo "cannot read $log" >&2; exit 1; }
pass=$(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
echo "Open http://127.0.0.1:8081/  user: viewer  password: $pass"
# read-only: no --permit-write, and the command is tail, not a shell
exec gotty --address 127.0.0.1 --port 8081 --credential "viewer:$pass" \
  --title-format "log" tail -n 200 -F "$log"
