#!/usr/bin/env bash
# Issue 49's repro through upskillctl: `check-kernel k.cu --no-cache` twice, each with a fresh
# empty directory in front of PATH (as Codex does), shares one worker server; a PATH whose gcc is
# another program gets its own; a server that exits leaves no socket and no lock file. The
# servers are this test's: its own XDG_RUNTIME_DIR, found through their sockets. Emits TAP.
set -uo pipefail
ctl=${UPSKILLCTL:?set UPSKILLCTL}
tmp=$(mktemp -d)
export XDG_RUNTIME_DIR=$tmp/run UPSKILLD_WORKER_SERVER_IDLE=60
mkdir -m 700 "$tmp/run"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/ctl.sh"
TAP_CAPTURE=$tmp/check
socks=$tmp/run/upskilld

# The supervisor behind a socket: the parent of the worker whose pid its greeting names.
server_of() {
  python3 - "$1" <<'EOF'
import json, os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(20)
s.connect(sys.argv[1])
pid = json.loads(s.makefile().readline())["worker"]["pid"]
print(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
EOF
}
sockets() { find "$socks" -maxdepth 1 -name 'workers-*.sock' 2>/dev/null | sort; }
# Wait (up to 20 s) until the runtime dir holds N sockets.
wait_sockets() {
  for _ in $(seq 200); do
    [ "$(sockets | wc -l)" = "$1" ] && return 0
    sleep 0.1
  done
  return 1
}
stop_all() {
  local s p
  for s in $(sockets); do
    p=$(server_of "$s" 2>/dev/null) && kill "$p" && for _ in $(seq 100); do
      kill -0 "$p" 2>/dev/null || break
      sleep 0.1
    done
  done
}
trap 'stop_all; rm -rf "$tmp"' EXIT

printf 'extern "C" __global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n' >"$tmp/k.cu"
check_with_path() { # check_with_path DIR: check k.cu with PATH=DIR:$PATH
  PATH="$1:$PATH" run --json check-kernel "$tmp/k.cu" --no-cache
}

tap_plan 5
ctl_need_toolkit
check_with_path "$(mktemp -d -p "$tmp")"
tap_check "the first check passes and leaves a server" eval 'rc 0 && wait_sockets 1'
first=$(sockets) server=$(server_of "$first" 2>/dev/null)
check_with_path "$(mktemp -d -p "$tmp")"
tap_check "another empty directory in front of PATH: the same socket and server" \
  eval 'rc 0 && sleep 0.5 && [ "$(sockets)" = "$first" ] && [ "$(server_of "$first")" = "$server" ]'

wrap=$(mktemp -d -p "$tmp")
printf '#!/bin/sh\nPATH=%q exec gcc "$@"\n' "$PATH" >"$wrap/gcc"
chmod 700 "$wrap/gcc"
check_with_path "$wrap"
tap_check "a PATH whose gcc is another program gets its own server" eval 'rc 0 && wait_sockets 2'
tap_check "the first server still serves" eval '[ "$(server_of "$first")" = "$server" ]'

stop_all
tap_check "servers that exit leave no socket and no lock file" \
  eval '[ -z "$(find "$socks" -maxdepth 1 -name "workers-*" 2>/dev/null)" ]'
tap_finish
