#!/bin/bash
# Smoke test (TAP): the real Claude Code and Codex CLIs, headless and offline against the scripted
# agent server (tests/agents/agent_server.mjs), each once with the house-rules skill installed in
# its workspace and once without. Reports, from the server's records, whether the skill was loaded,
# and checks the file written, the final answer and that the tokens the CLI reports are the
# server's. Skips when the CLIs are not installed under ${UPK_NPM_CACHE:-$repo/.cache/npm}/agents.
# Usage: tests/agents/smoke.sh   (KEEP=1 keeps the temp folder; AGENT_TIMEOUT=SECONDS per run)
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${UPK_NPM_CACHE:-$repo/.cache/npm}/agents/node_modules/.bin
have_claude=0 have_codex=0
[ -x "$bin/claude" ] && have_claude=1
[ -x "$bin/codex" ] && have_codex=1
if [ $have_claude = 0 ] && [ $have_codex = 0 ]; then
  echo "1..0 # SKIP agent CLIs not installed under $bin"; exit 0
fi
command -v node >/dev/null || { echo "1..0 # SKIP node not found"; exit 0; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/upk-agent-smoke-XXXXXX")
srv_pid=
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"; }
trap cleanup EXIT

node "$here/agent_server.mjs" >"$tmp/url" 2>"$tmp/server.log" &
srv_pid=$!
for _ in $(seq 100); do [ -s "$tmp/url" ] && break; sleep 0.1; done
url=$(head -1 "$tmp/url")
[ -n "$url" ] || { echo "1..0 # SKIP agent server did not start"; exit 0; }

prompt="What is the house rule for reductions? Check house-rules and write out.txt"
limit=${AGENT_TIMEOUT:-180}

# make_ws DIR CLI skill|baseline: a workspace (DIR/ws) with its own home and tmp
make_ws() {
  mkdir -p "$1/ws" "$1/home" "$1/tmp"
  [ "$3" = skill ] || return 0
  local d="$1/ws/.claude/skills/house-rules"
  [ "$2" = codex ] && d="$1/ws/.agents/skills/house-rules"
  mkdir -p "$d"
  cat >"$d/SKILL.md" <<'EOF'
---
name: house-rules
description: The house rules for GPU kernels in this repository. Use when asked about house rules.
---
# House rules

When asked about the house rule for reductions, answer with the line below.

ANSWER: use warp shuffles
EOF
}

run_claude() { # DIR
  (cd "$1/ws" && env -i PATH="$PATH" HOME="$1/home" TMPDIR="$1/tmp" IS_SANDBOX=1 \
    ANTHROPIC_BASE_URL="$url" ANTHROPIC_API_KEY=sk-dummy \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 \
    timeout -k 5 "$limit" "$bin/claude" -p "$prompt" --output-format stream-json --verbose \
      --dangerously-skip-permissions </dev/null >"$1/stdout" 2>"$1/stderr")
}

run_codex() { # DIR
  cat >"$1/home/config.toml" <<EOF
model = "gpt-5.5"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "$url/v1"
wire_api = "responses"
experimental_bearer_token = "sk-dummy"
request_max_retries = 0
stream_max_retries = 0

[features]
plugins = false
remote_plugin = false
apps = false
tool_suggest = false

[analytics]
enabled = false
EOF
  (cd "$1/ws" && env -i PATH="$PATH" HOME="$1/home" CODEX_HOME="$1/home" TMPDIR="$1/tmp" \
    timeout -k 5 "$limit" "$bin/codex" exec --json --skip-git-repo-check "$prompt" </dev/null >"$1/stdout" 2>"$1/stderr")
}

# check CLI MODE DIR RC: prints one line "LOADED|NOT_LOADED [problems...]" from the server's records
check() {
  node --input-type=module - "$@" "$url" <<'EOF'
const [cli, mode, dir, rc, url] = process.argv.slice(2);
import fs from 'node:fs';
const lines = fs.readFileSync(dir + '/stdout', 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return {}; } });
const problems = [];
let sid, answer, usage;
if (cli === 'claude') {
  const res = lines.findLast((l) => l.type === 'result') ?? {};
  sid = res.session_id; answer = res.result; usage = res.usage;
  if (res.is_error) problems.push('is_error');
} else {
  sid = lines.find((l) => l.type === 'thread.started')?.thread_id;
  answer = lines.findLast((l) => l.type === 'item.completed' && l.item?.type === 'agent_message')?.item.text;
  usage = lines.findLast((l) => l.type === 'turn.completed')?.usage;
}
if (rc !== '0') problems.push('exit ' + rc);
const all = await (await fetch(url + '/_agent/sessions')).json();
const s = all[sid];
if (!s) { console.log('NOT_LOADED no server record for session ' + sid); process.exit(0); }
const want = mode === 'skill' ? 'ANSWER: use warp shuffles' : 'I do not know the house rule.';
if (answer !== want) problems.push(`answer ${JSON.stringify(answer)}`);
let file = null;
try { file = fs.readFileSync(dir + '/ws/out.txt', 'utf8').trim(); } catch { /* missing */ }
const wantFile = mode === 'skill' ? 'ANSWER: use warp shuffles' : 'no idea';
if (file !== wantFile) problems.push(`out.txt ${JSON.stringify(file)}`);
if (usage?.input_tokens !== s.usage.input_tokens || usage?.output_tokens !== s.usage.output_tokens)
  problems.push(`usage ${JSON.stringify(usage)} vs server ${JSON.stringify(s.usage)}`);
console.log((s.skillLoaded ? 'LOADED' : 'NOT_LOADED') + (problems.length ? ' ' + problems.join('; ') : ''));
EOF
}

word() { case $1 in LOADED) echo loaded;; *) echo "not loaded";; esac; }

echo "1..8"
n=0
for cli in claude codex; do
  for mode in skill baseline; do
    have=$have_claude; [ $cli = codex ] && have=$have_codex
    d="$tmp/$cli-$mode"
    n=$((n + 1))
    if [ "$have" = 0 ]; then
      echo "ok $n - $cli $mode: skill load as expected # SKIP $cli not installed"
      n=$((n + 1)); echo "ok $n - $cli $mode: run # SKIP $cli not installed"; continue
    fi
    make_ws "$d" $cli $mode
    t0=$(date +%s.%N)
    run_$cli "$d"; rc=$?
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    out=$(check $cli $mode "$d" $rc)
    loaded=${out%% *}
    problems=${out#"$loaded"}
    expect=LOADED; [ $mode = baseline ] && expect=NOT_LOADED
    if [ "$loaded" = "$expect" ]; then echo "ok $n - $cli $mode: skill $(word "$loaded") (${wall}s)"
    else echo "not ok $n - $cli $mode: skill $(word "$loaded"), expected $(word "$expect")"; fi
    n=$((n + 1))
    if [ -z "${problems// /}" ]; then echo "ok $n - $cli $mode: exit 0, out.txt, answer and usage as scripted"
    else
      echo "not ok $n - $cli $mode:$problems"
      sed 's/^/# /' "$d/stderr" | tail -5
    fi
  done
done
