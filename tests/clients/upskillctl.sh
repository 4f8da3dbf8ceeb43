#!/usr/bin/env bash
# upskillctl through its real interface: spawn it, let it spawn the daemon, check output and exit codes.
# Emits TAP.
set -uo pipefail
ctl=${UPSKILLCTL:?set UPSKILLCTL}
daemon=${UPSKILLD:?set UPSKILLD}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() { # check NAME COMMAND... ; the command's status decides
  n=$((n + 1))
  if "${@:2}" >"$tmp/out" 2>"$tmp/err"; then
    echo "ok $n - $1"
  else
    failed=$((failed + 1))
    echo "not ok $n - $1"
    sed 's/^/# /' "$tmp/out" "$tmp/err" | head -20
  fi
}
run() { "$ctl" "$@" >"$tmp/o" 2>"$tmp/e" </dev/null; echo $? >"$tmp/rc"; }
rc() { [[ $(cat "$tmp/rc") == "$1" ]]; }
has() { grep -q -- "$1" "$tmp/$2"; }

echo "1..12"
export UPSKILLD=$daemon
run ping
check "ping answers" eval 'rc 0 && has "^pong in [0-9.]* ms$" o'
run --json ping
check "ping --json is JSON" eval 'rc 0 && python3 -c "import json,sys; d=json.load(open(\"$tmp/o\")); assert d[\"ok\"] is True and d[\"ms\"] >= 0"'
run status
check "status table names the toolkit and providers" \
  eval 'rc 0 && has "^upskilld [0-9]" o && has "CUDA toolkit" o && has "provider anthropic" o'
run --json status
check "status --json has the daemon's fields" eval 'rc 0 && python3 -c "
import json; d=json.load(open(\"$tmp/o\"))
assert d[\"name\"] == \"upskilld\" and d[\"protocol\"] == \"lsp\" and \"toolkit\" in d[\"cuda\"], d"'
run raw upskilld/status '{}'
check "raw prints the result" eval 'rc 0 && has "\"name\": \"upskilld\"" o'
run raw no/such/method
check "raw: unknown method exits 1 with the error" eval 'rc 1 && has "error -32601: method not found: no/such/method" e'
run raw upskilld/status '[1'
check "raw: bad JSON params exits 2" eval 'rc 2 && has "params must be a JSON object" e'
run frobnicate
check "unknown command exits 2 with usage" eval 'rc 2 && has "usage: upskillctl" e'
run --server "$daemon --test-methods" raw upskilld/sleep '{"ms":50,"steps":2}'
check "--server runs the given command" eval 'rc 0 && has "\"slept\": 50" o'
run --server "$daemon --test-methods" raw upskilld/sleep '{"ms":"x"}'
check "wrong param type names the field" eval 'rc 1 && has "params.ms: expected integer, got string" e'
run --server "false" ping
check "a server that dies is reported" eval 'rc 1 && has "cannot start the server" e'
# The progress bar needs a terminal on stderr: run under a pseudo-terminal with script(1).
if command -v script >/dev/null; then
  script -qec "$ctl --server '$daemon --test-methods' raw upskilld/sleep '{\"ms\":600,\"steps\":3}'" "$tmp/tty" >/dev/null 2>&1 </dev/null
  check "progress bar on a TTY" grep -q "\[#########\.*\]  33% step 1 of 3" "$tmp/tty"
else
  echo "ok 12 - progress bar on a TTY # SKIP script(1) not installed"
fi
exit $((failed > 0))
