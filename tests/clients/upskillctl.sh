#!/usr/bin/env bash
# upskillctl through its real interface: spawn it, let it spawn the daemon, check output and exit codes.
# Emits TAP.
set -uo pipefail
ctl=${UPSKILLCTL:?set UPSKILLCTL}
daemon=${UPSKILLD:?set UPSKILLD}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/ctl.sh"
TAP_CAPTURE=$tmp/check

tap_plan 12
export UPSKILLD=$daemon
run ping
tap_check "ping answers" eval 'rc 0 && has "^pong in [0-9.]* ms$" o'
run --json ping
tap_check "ping --json is JSON" eval 'rc 0 && python3 -c "import json,sys; d=json.load(open(\"$tmp/o\")); assert d[\"ok\"] is True and d[\"ms\"] >= 0"'
run status
tap_check "status table names the toolkit and providers" \
  eval 'rc 0 && has "^upskilld [0-9]" o && has "CUDA toolkit" o && has "provider anthropic" o'
run --json status
tap_check "status --json has the daemon's fields" eval 'rc 0 && python3 -c "
import json; d=json.load(open(\"$tmp/o\"))
assert d[\"name\"] == \"upskilld\" and d[\"protocol\"] == \"lsp\" and \"toolkit\" in d[\"cuda\"], d"'
run raw upskilld/status '{}'
tap_check "raw prints the result" eval 'rc 0 && has "\"name\": \"upskilld\"" o'
run raw no/such/method
tap_check "raw: unknown method exits 1 with the error" eval 'rc 1 && has "error -32601: method not found: no/such/method" e'
run raw upskilld/status '[1'
tap_check "raw: bad JSON params exits 2" eval 'rc 2 && has "params must be a JSON object" e'
run frobnicate
tap_check "unknown command exits 2 with usage" eval 'rc 2 && has "usage: upskillctl" e'
run --server "$daemon --test-methods" raw upskilld/sleep '{"ms":50,"steps":2}'
tap_check "--server runs the given command" eval 'rc 0 && has "\"slept\": 50" o'
run --server "$daemon --test-methods" raw upskilld/sleep '{"ms":"x"}'
tap_check "wrong param type names the field" eval 'rc 1 && has "params.ms: expected integer, got string" e'
run --server "false" ping
tap_check "a server that dies is reported" eval 'rc 1 && has "cannot start the server" e'
# The progress bar needs a terminal on stderr: run under a pseudo-terminal with script(1).
if command -v script >/dev/null; then
  script -qec "$ctl --server '$daemon --test-methods' raw upskilld/sleep '{\"ms\":600,\"steps\":3}'" "$tmp/tty" >/dev/null 2>&1 </dev/null
  tap_check "progress bar on a TTY" grep -q "\[#########\.*\]  33% step 1 of 3" "$tmp/tty"
else
  echo "ok 12 - progress bar on a TTY # SKIP script(1) not installed"
fi
tap_finish
