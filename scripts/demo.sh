#!/usr/bin/env bash
# The main job: install what is missing, build, and show the daemon at work
# over both protocols: a person's client (upskillctl, LSP framing) and a coding
# agent's view (MCP stdio, one JSON message per line).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh build

daemon=build/daemon/upskilld
ctl=build/clients/upskillctl
if [[ -t 1 ]]; then b=$'\033[1m' c=$'\033[36m' n=$'\033[0m'; else b="" c="" n=""; fi
say() { printf '\n%s== %s%s\n' "$b" "$*" "$n"; }

say "upskillctl status (spawns upskilld, LSP initialize, upskilld/status, shutdown, exit)"
$ctl status

say "upskillctl ping"
$ctl ping

say "Skills: which one fits a CUDA task? (built-in library + every agent's skill directories)"
proj=$(mktemp -d /tmp/upskilld-demo.XXXXXX)
(cd "$proj" && "$root/$ctl" lookup "my Hopper kernel needs 100 KB of dynamic shared memory per block" --limit 3)
say "Validate it, then install it into a fresh project's .claude/skills"
(cd "$proj" && "$root/$ctl" validate "$root/skills/library/h100-cuda-kernels" &&
  "$root/$ctl" install "$root/skills/library/h100-cuda-kernels" --agent claude &&
  "$root/$ctl" list --agent claude --scope project)
find "$proj/.claude" -maxdepth 3 | sed "s|$proj|  <project>|"

say "Validate CUDA kernels for H100 (NVRTC in a worker process; no GPU needed)"
corpus=tests/kernel/corpus
if [[ -e "${CUDA_PATH:-/usr/local/cuda}/include/nvrtc.h" ]]; then
  $ctl check-kernel "$corpus/sgemm_tiled.cu" --block 256 || true
  $ctl check-kernel "$corpus/spill.cu" || true
  echo "  -- a kernel with a mistake: gcc-style positions, exit status 1"
  $ctl check-kernel "$corpus/err_undefined.cu" || echo "  (exit status $?)"
else
  echo "  (no CUDA toolkit at ${CUDA_PATH:-/usr/local/cuda}: kernel checks answer one clear diagnostic)"
  $ctl check-kernel "$corpus/saxpy.cu" || true
fi

say "Whole files and projects: host code goes through nvcc -cubin, build.toml through toml++"
if [[ -e "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" ]]; then
  $ctl check-kernel tests/kernel/mixed/saxpy_main.cu || true
  $ctl check-kernel tests/kernel/projects/good || true
else
  echo "  (no nvcc: files with host code answer one clear diagnostic)"
fi

say "Run it on a GPU: correctness against a reference and timing (Driver API, in a worker)"
spec=$(mktemp /tmp/upskilld-run.XXXXXX.json)
printf '%s' '{"kernel":"saxpy","grid":[4],"block":[256],"args":[{"name":"n","dtype":"i32","value":1024},{"name":"a","dtype":"f32","value":2},{"name":"x","dtype":"f32","count":1024,"role":"in"},{"name":"y","dtype":"f32","count":1024,"role":"inout"}]}' >"$spec"
$ctl check-kernel tests/kernel/corpus/saxpy.cu --run "$spec" || echo "  (exit status $?: without a GPU the run part says so; the compile part still answered)"
rm -f "$spec"

say "Evaluate a skill with and without it on two models (a scripted model server on loopback"
echo "   speaking the real Anthropic and OpenAI wire formats; with real keys, point it at the APIs)"
evaldir=$(mktemp -d /tmp/upskilld-eval.XXXXXX)
node tests/models/server.mjs --delay 50 --skill-rule "cudaFuncSetAttribute" >"$evaldir/url" &
server=$!
for _ in $(seq 50); do [[ -s "$evaldir/url" ]] && break; sleep 0.1; done
mkdir -p "$evaldir/project/skills" "$evaldir/home"
cp -r skills/library/h100-cuda-kernels "$evaldir/project/skills/"
cat >"$evaldir/tests.json" <<'JSON'
{"cases": [
  {"input": "My H100 kernel needs 100 KB of dynamic shared memory per block; how do I launch it?",
   "expected": {"contains": ["cudaFuncSetAttribute"]}},
  {"input": "The launch fails with too much shared memory requested; what is missing?",
   "expected": {"contains": ["cudaFuncSetAttribute"]}}
]}
JSON
(cd "$evaldir/project" && env HOME="$evaldir/home" XDG_CONFIG_HOME="$evaldir/home/.config" \
  XDG_STATE_HOME="$evaldir/home/.state" ANTHROPIC_API_KEY=sk-ant-demo ANTHROPIC_BASE_URL="$(cat "$evaldir/url")" \
  OPENAI_API_KEY=sk-demo OPENAI_BASE_URL="$(cat "$evaldir/url")/v1" \
  "$root/$ctl" eval skills/h100-cuda-kernels -m anthropic.claude-demo -m openai.gpt-demo --runs 3 \
    --tests "$evaldir/tests.json") || true
say "The run as a picture: one self-contained HTML file (SVG charts, no script; open it in a browser)"
report=/tmp/upskilld-demo-report.html
run_id=$(ls "$evaldir/home/.state/upskilld/runs" 2>/dev/null | tail -n 1)
if [[ -n $run_id ]]; then
  (cd "$evaldir/project" && env HOME="$evaldir/home" XDG_CONFIG_HOME="$evaldir/home/.config" \
    XDG_STATE_HOME="$evaldir/home/.state" "$root/$ctl" report "$run_id" -o "$report") || true
fi
if [[ -e "${CUDA_PATH:-/usr/local/cuda}/include/nvrtc.h" ]]; then
  $ctl check-kernel tests/kernel/corpus/spill.cu --html /tmp/upskilld-demo-kernel.html >/dev/null || true
fi
kill "$server" 2>/dev/null || true
rm -rf "$evaldir"

say "A coding agent's MCP session over stdio"
coproc MCP { exec "$daemon" --mcp --test-methods 2>/dev/null; }
send() { printf '  %s-> %s%s\n' "$c" "$1" "$n"; printf '%s\n' "$1" >&"${MCP[1]}"; }
recv() { # print responses until the one with this id
  local line
  while IFS= read -r -t 10 line <&"${MCP[0]}"; do
    printf '  <- %.220s%s\n' "$line" "$([[ ${#line} -gt 220 ]] && echo ' ...')"
    [[ "$line" == *"\"id\":$1,"* ]] && return 0
  done
  echo "  (no answer)"; return 1
}
send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}'
recv 1
send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
send '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
recv 2
send '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"find_skill","arguments":{"task":"kernel crashes with an illegal memory access","limit":1}}}'
recv 3
send '{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"validate_kernel","arguments":{"source":"__global__ void k(float *y) { y[threadIdx.x] = __shfl_down(y[0], 1); }","blockSize":128}}}'
recv 30
send '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":400,"steps":4},"_meta":{"progressToken":"t4"}}}'
send '{"jsonrpc":"2.0","id":5,"method":"ping"}'
recv 5
echo "  (ping answered while the sleep is still running)"
recv 4
send '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":5000}}}'
send '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6,"reason":"demo"}}'
send '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nonexistent"}}'
recv 7
echo "  (request 6 was cancelled: MCP sends no answer for it)"
send 'this is not JSON'
send '{"jsonrpc":"2.0","id":8,"method":"ping"}'
recv 8
exec {MCP[1]}>&-
wait "$MCP_PID" && echo "  stdin closed -> upskilld exited with status 0"

say "Done. Connect an agent with: claude mcp add upskilld -- $root/$daemon --mcp"
