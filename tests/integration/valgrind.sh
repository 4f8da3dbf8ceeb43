#!/usr/bin/env bash
# The daemon's whole lifecycle under valgrind, in both framings: initialize, status, a sleep
# with progress, a cancelled sleep, bad input, shutdown and exit; then a SIGTERM with work in
# flight. Any memory error or definite/indirect leak makes valgrind exit 99. Emits TAP.
set -uo pipefail
export LC_ALL=C # ${#body} must count bytes

if [[ -n ${UPK_SANITIZE:-} && $UPK_SANITIZE != none ]]; then
  echo "1..0 # SKIP built with sanitizers ($UPK_SANITIZE): valgrind cannot run them"
  exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
  echo "1..0 # SKIP valgrind not installed"
  exit 0
fi
daemon=${UPSKILLD:?set UPSKILLD}
supp="$(cd "$(dirname "$0")" && pwd)/valgrind.supp" # NVIDIA driver noise (status dlopens libcuda)
tmp=$(mktemp -d)
export HOME=$tmp/home XDG_CACHE_HOME=$tmp/home/cache # the skill index: never the user's
export GENERIC_BASE_URL=http://127.0.0.1:1/v1 # nothing listens: the model call fails, cleanly
mkdir -p "$HOME"
pid=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  exec 3>&-
  [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap '' PIPE # a daemon that died must fail a check, not kill this script

. "$(dirname "$0")/../lib/tap.sh"
TAP_DIAG_LINES=40

framing=mcp
send() { # one message in the current framing
  if [[ $framing == lsp ]]; then
    printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1" >&3
  else
    printf '%s\n' "$1" >&3
  fi
}
has() { grep -qF -- "$1" "$tmp/out"; }
wait_for() { # wait_for TEXT: until the daemon's output holds TEXT (valgrind is slow)
  local i
  for ((i = 0; i < 1200; i++)); do
    has "$1" && return 0
    kill -0 "$pid" 2>/dev/null || { has "$1"; return; }
    sleep 0.1
  done
  return 1
}
start() { # start ARGS...: the daemon under valgrind, reading a FIFO on fd 3
  rm -f "$tmp/in" "$tmp/out" "$tmp/err" "$tmp/vg"
  mkfifo "$tmp/in"
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
    --suppressions="$supp" --log-file="$tmp/vg" "$daemon" "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  exec 3>"$tmp/in"
}
finish() { # close stdin, wait for the exit status (killing it after 120 s)
  exec 3>&-
  local i
  for ((i = 0; i < 1200; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  pid=
}

deep=$(printf '%*s' 100000 '' | tr ' ' '[')$(printf '%*s' 100000 '' | tr ' ' ']')

session() { # session FRAMING
  framing=$1
  local flag=--$1 init cancel token
  if [[ $framing == lsp ]]; then
    init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///tmp","capabilities":{}}}'
    cancel='{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":5}}'
    token='"workDoneToken":"tok"'
  else
    init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}'
    cancel='{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}'
    token='"_meta":{"progressToken":"tok"}'
  fi
  start --test-methods "$flag"
  send "$init"
  send '{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}'
  [[ $framing == mcp ]] && send '{"jsonrpc":"2.0","id":20,"method":"logging/setLevel","params":{"level":"debug"}}'
  send '{"jsonrpc":"2.0","id":2,"method":"upskilld/status"}'
  [[ $framing == mcp ]] && send '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"status","arguments":{}}}'
  send '{"jsonrpc":"2.0","id":4,"method":"upskilld/sleep","params":{"ms":400,"steps":4,'"$token"'}}'
  send '{"jsonrpc":"2.0","id":5,"method":"upskilld/sleep","params":{"ms":600000,"steps":100}}'
  send "$cancel"
  # Bad input of every kind.
  send '{"jsonrpc":"2.0","id":6,'
  send '42'
  send '{"jsonrpc":"1.0","id":7,"method":"ping"}'
  send '{"jsonrpc":"2.0","id":8,"method":"no/such"}'
  send '{"jsonrpc":"2.0","id":9,"method":"upskilld/sleep","params":{"ms":"x"}}'
  send $'{"jsonrpc":"2.0","id":10,"method":"p\xffng"}'
  send "$deep"
  send '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":[]}}}'
  send '{"jsonrpc":"2.0","id":4,"method":"ping"}' # id 4 is in flight
  if [[ $framing == lsp ]]; then
    printf 'Content-Length: -5\r\n\r\n' >&3
    printf 'Content-Length: 99999999999999999999999\r\n\r\n' >&3
    printf 'X-No-Length: 1\r\n\r\n' >&3
  else
    send '[{"jsonrpc":"2.0","id":12,"method":"ping"},{"jsonrpc":"2.0","method":"n"},1,{"jsonrpc":"2.0","id":13,"method":"upskilld/sleep","params":{"ms":50}}]'
    send '[]'
  fi
  # The kernel service and its worker pool (a compile, a crashed worker) and the model
  # providers (libcurl loaded on first use, a refused connection, retried, then an error).
  send '{"jsonrpc":"2.0","id":30,"method":"kernel/validate","params":{"source":"__global__ void k(float *y) { y[threadIdx.x] = 1.0f; }"}}'
  send '{"jsonrpc":"2.0","id":31,"method":"upskilld/worker","params":{"op":"crash"}}'
  send '{"jsonrpc":"2.0","id":32,"method":"models/complete","params":{"model":"generic.none","prompt":"hi","timeoutMs":3000}}'
  send '{"jsonrpc":"2.0","id":14,"method":"ping"}'
  wait_for '"id":14,"result"'
  local answered=$?
  wait_for '"id":30,"result"' && wait_for '"id":31,"result"' && wait_for '"id":32,"error"'
  local services=$?
  wait_for '"id":4,"result"'
  local slept=$?
  send '{"jsonrpc":"2.0","id":99,"method":"shutdown"}'
  wait_for '"id":99,"result"'
  send '{"jsonrpc":"2.0","id":100,"method":"ping"}'
  wait_for '"id":100,"error"'
  send '{"jsonrpc":"2.0","method":"exit"}'
  finish

  tap_result "$framing: session under valgrind exits 0 (99: memory errors or leaks)" \
    "$([[ $rc == 0 ]]; echo $?)" "$tmp/vg" "$tmp/err"
  local missing=0 id
  for id in 1 2 4 8 99; do has "\"id\":$id," || missing=1; done
  tap_result "$framing: every request was answered" "$((answered || missing))" "$tmp/out"
  tap_result "$framing: kernel check, worker crash and a failed model call answered" "$services" "$tmp/out"
  local progress=1
  if [[ $framing == lsp ]]; then
    has '"kind":"begin"' && has '"kind":"report"' && has '"kind":"end"' && progress=0
  else
    has '"method":"notifications/progress"' && progress=0
  fi
  tap_result "$framing: the sleep reported progress and finished" "$((progress || slept))" "$tmp/out"
  local cancel_ok=1
  if [[ $framing == lsp ]]; then
    has '"id":5,"error":{"code":-32800' && cancel_ok=0
  else
    has '"id":5,' || cancel_ok=0
  fi
  tap_result "$framing: the cancelled sleep was $([[ $framing == lsp ]] && echo 'answered -32800' || echo 'never answered')" \
    "$cancel_ok" "$tmp/out"
  local errors=0
  has '"id":null,"error":{"code":-32700' || errors=1
  has '"id":7,"error":{"code":-32600' || errors=1
  has '"id":8,"error":{"code":-32601' || errors=1
  has '"id":9,"error":{"code":-32602' || errors=1
  has '"id":100,"error":{"code":-32600' || errors=1
  tap_result "$framing: bad input got the right error codes" "$errors" "$tmp/out"
}

signal_run() {
  framing=mcp
  start --test-methods --shutdown-grace=1 # the sleep outlasts the grace: answered -32800
  send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}'
  send '{"jsonrpc":"2.0","id":2,"method":"upskilld/sleep","params":{"ms":600000,"steps":1000,"_meta":{"progressToken":1}}}'
  send '{"jsonrpc":"2.0","id":3,"method":"upskilld/status"}'
  wait_for '"id":3,'
  kill -TERM "$pid"
  finish
  tap_result "SIGTERM with a sleep in flight: answered -32800, exits 0 under valgrind" \
    "$([[ $rc == 0 ]] && has '"id":2,"error":{"code":-32800'; echo $?)" "$tmp/vg" "$tmp/err" "$tmp/out"
}

eof_run() {
  framing=lsp
  start --test-methods
  send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
  send '{"jsonrpc":"2.0","id":2,"method":"upskilld/sleep","params":{"ms":300,"steps":2}}'
  printf 'Content-Length: 1073741824\r\n\r\n{"partial":' >&3
  finish
  local answered=1
  has '"id":2,"result"' && answered=0
  tap_result "EOF inside a huge message with a sleep in flight: answered, exit 0, no leaks" \
    "$([[ $rc == 0 && $answered == 0 ]]; echo $?)" "$tmp/vg" "$tmp/err" "$tmp/out"
}

# Two daemons and the worker server: the first launches it (its own check runs on a local
# worker), the second takes a worker from it over the socket and gives it back at exit.
server_run() {
  framing=mcp
  export XDG_RUNTIME_DIR=$tmp/run UPSKILLD_WORKER_SERVER_IDLE=60
  mkdir -p "$XDG_RUNTIME_DIR"
  local k rcs=0 answered=0 served=1
  for k in 1 2; do
    start
    send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}'
    send '{"jsonrpc":"2.0","id":2,"method":"kernel/validate","params":{"source":"__global__ void k(float *y) { y[threadIdx.x] = 2.0f; }","cache":false}}'
    wait_for '"id":2,"result"' || answered=1
    send '{"jsonrpc":"2.0","id":3,"method":"upskilld/status"}'
    wait_for '"id":3,"result"' || answered=1
    [[ $k == 2 ]] && grep -q '"fromServer":[1-9]' "$tmp/out" && served=0
    finish
    [[ $rc == 0 ]] || rcs=$rc
    for ((i = 0; k == 1 && i < 200; i++)); do # until the server is listening
      compgen -G "$XDG_RUNTIME_DIR/upskilld/workers-*.sock" >/dev/null && break
      sleep 0.1
    done
  done
  pkill -KILL -f -- "--serve $XDG_RUNTIME_DIR/" 2>/dev/null
  unset XDG_RUNTIME_DIR UPSKILLD_WORKER_SERVER_IDLE
  tap_result "two daemons and the worker server: both exit 0 under valgrind, both checks answered" \
    "$([[ $rcs == 0 && $answered == 0 ]]; echo $?)" "$tmp/vg" "$tmp/err" "$tmp/out"
  if [[ ! -e /usr/local/cuda/lib64/libnvrtc.so && -z ${CUDA_PATH:-} ]]; then
    tap_skip "the second daemon took its worker from the server" \
      "no NVRTC: no warm worker to take from a server"
  else
    tap_result "the second daemon took its worker from the server" "$served" "$tmp/out"
  fi
}

# MCP 2026-07-28 without a handshake, and the Skills extension: list, get, read a text and a
# binary file (digests through libcrypto on the skills queue), a directory, refusals.
stateless_run() {
  framing=mcp
  local sk=$HOME/.claude/skills/vg-skill m='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}'
  mkdir -p "$sk/references"
  printf -- '---\nname: vg-skill\ndescription: Use for valgrind.\n---\n# vg\n' >"$sk/SKILL.md"
  printf '\0\1binary' >"$sk/references/b.bin"
  start
  send '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{'"$m"'}}'
  send '{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{'"$m"'}}'
  send '{"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://user/.claude/skills/vg-skill/SKILL.md",'"$m"'}}'
  send '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://user/.claude/skills/vg-skill/references/b.bin",'"$m"'}}'
  send '{"jsonrpc":"2.0","id":5,"method":"resources/directory/read","params":{"uri":"skill://user/.claude/skills/vg-skill",'"$m"'}}'
  send '{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"skill://user/../etc/passwd",'"$m"'}}'
  send '{"jsonrpc":"2.0","id":7,"method":"skills/list","params":{"cursor":"s1:x",'"$m"'}}'
  send '{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}}'
  send '{"jsonrpc":"2.0","id":9,"method":"ping","params":{'"$m"'}}'
  wait_for '"id":9,'
  wait_for '"id":2,' && wait_for '"id":3,' && wait_for '"id":4,' && wait_for '"id":5,'
  finish
  local ok=1
  # a page's skills are written after the rest of its result (spliced: docs/skills.md)
  has '"id":2,"result":{"resultType":"complete",' &&
    has '"skills":[{"uri":"skill://user/.claude/skills/vg-skill/SKILL.md"' &&
    has '"id":4,"result":{"contents":[{"uri":"skill://user/.claude/skills/vg-skill/references/b.bin","mimeType":"application/octet-stream","blob"' &&
    has '"id":6,"error":{"code":-32602' && has '"id":7,"error":{"code":-32602' &&
    has '"id":8,"error":{"code":-32022' && has '"id":9,"error":{"code":-32601' && ok=0
  tap_result "mcp 2026-07-28 and the Skills extension under valgrind: answers right, exit 0, no leaks" \
    "$([[ $rc == 0 && $ok == 0 ]]; echo $?)" "$tmp/vg" "$tmp/err" "$tmp/out"
  rm -rf "$sk"
}

tap_plan 17
stateless_run
session mcp
session lsp
signal_run
eof_run
server_run
tap_finish
