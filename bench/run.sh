#!/usr/bin/env bash
# Pipelined MCP pings, start-to-initialize time and idle memory: upskilld side by side with
# a minimal server on the official MCP TypeScript SDK, in the same run, checked against the
# targets. Knobs: PINGS (200000), WINDOW (4096), SPAWNS (20), BUILD (build dir, default build).
# Exit status 0 when every target is met.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${BUILD:-build}
pings=${PINGS:-200000} window=${WINDOW:-4096} spawns=${SPAWNS:-20}

[[ -f $build/build.ninja ]] || meson setup "$build" >/dev/null
ninja -C "$build" >/dev/null
ping=$build/bench/ping
if [[ ! -x $ping || bench/ping.c -nt $ping ]]; then # meson builds it once subdir('bench') is in
  mkdir -p "$build/bench"
  cc -O2 -D_GNU_SOURCE -o "$ping" bench/ping.c
fi
tests/conformance/setup-npm.sh >/dev/null

# The daemon alone (its local warm worker as before): no worker server left behind by a bench.
export UPSKILLD_WORKER_SERVER_IDLE=0
run() { "$ping" -n "$pings" -w "$window" -s "$spawns" -- "$@"; }
u=$(run "$build/daemon/upskilld" --mcp) || true
echo "upskilld:   $u"
s=$(run node bench/sdk_server.mjs) || true
echo "SDK server: $s"

awk -v u="$u" -v s="$s" '
function kv(line, key,   a, i, n) {
  n = split(line, a, /[ =]/)
  for (i = 1; i < n; i += 2) if (a[i] == key) return a[i + 1] + 0
  return -1
}
function row(name, a, b, fmt, target, ok) {
  printf "%-24s %12" fmt " %12" fmt " %10.3g  %-26s %s\n", name, a, b, b ? a / b : 0, target, ok
  fails += ok == "FAIL"
}
function verdict(ok) { return ok ? "PASS" : "FAIL" }
BEGIN {
  up = kv(u, "pings_per_s"); sp = kv(s, "pings_per_s")
  ui = kv(u, "init_ms_median"); si = kv(s, "init_ms_median")
  ur = kv(u, "rss_idle_kib") / 1024; sr = kv(s, "rss_idle_kib") / 1024
  printf "\n%-24s %12s %12s %10s  %-26s %s\n", "", "upskilld", "SDK server", "upk/SDK", "target", "result"
  row("pings/s", up, sp, ".0f", ">= 300000 and >= 5x SDK", verdict(up >= 300000 && sp > 0 && up >= 5 * sp))
  row("initialize ms (median)", ui, si, ".2f", "<= 10", verdict(ui >= 0 && ui <= 10))
  row("RSS MiB after init", kv(u, "rss_init_kib") / 1024, kv(s, "rss_init_kib") / 1024, ".1f", "", "-")
  row("idle RSS MiB after load", ur, sr, ".1f", "<= 8", verdict(ur > 0 && ur <= 8))
  exit fails > 0
}'
