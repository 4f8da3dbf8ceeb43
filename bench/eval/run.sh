#!/bin/sh
# skills/eval speed: 3 cases x 5 runs x 2 models x (baseline + skill) = 60 model calls against the
# scripted model server answering in 200 ms (tests/models/server.mjs, loopback), at concurrency 8
# and one call at a time (as upskill's benchmark runs), with the ratio. Target: <= 2 s at 8.
# Usage: bench/eval/run.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
ctl="$build/clients/upskillctl"
[ -x "$ctl" ] || { echo "bench/eval: build first ($ctl missing)" >&2; exit 1; }
tmp=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

node "$root/tests/models/server.mjs" --delay 200 --skill-rule BENCH-MARKER >"$tmp/url" &
server_pid=$!
for _ in $(seq 50); do [ -s "$tmp/url" ] && break; sleep 0.1; done
url=$(cat "$tmp/url")

mkdir -p "$tmp/project/skills/bench-skill" "$tmp/home"
printf -- '---\nname: bench-skill\ndescription: Use when benchmarking the evaluator.\n---\n# Bench\n\nAlways say BENCH-MARKER.\n' \
  >"$tmp/project/skills/bench-skill/SKILL.md"
cat >"$tmp/tests.json" <<'JSON'
{"cases": [
  {"input": "first request", "expected": {"contains": ["BENCH-MARKER"]}},
  {"input": "second request", "expected": {"contains": ["BENCH-MARKER"], "not_contains": ["no idea"]}},
  {"input": "third request", "expected": {"regex": ["BENCH-[A-Z]+"]}}
]}
JSON
printf 'runs_dir: runs\n' >"$tmp/project/upskill.config.yaml"

run() { # concurrency -> seconds (the daemon's own elapsedMs for the whole eval)
  (cd "$tmp/project" && env -u http_proxy -u https_proxy HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
    XDG_STATE_HOME="$tmp/home/.state" ANTHROPIC_API_KEY=sk-ant-bench-0000 ANTHROPIC_BASE_URL="$url" \
    OPENAI_API_KEY=sk-proj-bench-0000 OPENAI_BASE_URL="$url/v1" \
    "$ctl" --json eval skills/bench-skill -m anthropic.claude-bench -m openai.gpt-bench --runs 5 \
      --tests "$tmp/tests.json" --concurrency "$1") >"$tmp/out.$1"
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (r.trials !== 60) throw new Error("expected 60 trials, got " + r.trials);
    process.stdout.write((r.elapsedMs / 1000).toFixed(3));' "$tmp/out.$1"
}

fast=$(run 8)
slow=$(run 1)
ratio=$(node -e "process.stdout.write((${slow} / ${fast}).toFixed(1))")
verdict=$(node -e "process.stdout.write(${fast} <= 2.0 ? 'ok' : 'OVER')")
printf 'eval: 60 calls at 200 ms\n'
printf '  concurrency 8     %6.3f s   (target <= 2 s: %s)\n' "$fast" "$verdict"
printf '  one at a time     %6.3f s\n' "$slow"
printf '  ratio             %6sx\n' "$ratio"
[ "$verdict" = ok ]
