#!/usr/bin/env bash
# The VS Code extension (clients/vscode): compiled, packaged into a .vsix with @vscode/vsce, and
# the packaged extension driven end to end against the real daemon with a recording stand-in
# for the `vscode` module (code_server.sh runs it in real VS Code). npm packages, pinned in
# clients/vscode/package.json, go to $UPK_NPM_CACHE/vscode-ext. Skips without node or a toolkit.
set -eu
daemon=${UPSKILLD:?set UPSKILLD}
root=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
ext=$root/clients/vscode
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "1..0 # SKIP no node/npm"
  exit 0
fi
cuda=${CUDA_PATH:-/usr/local/cuda}
if [ ! -r "$cuda/include/nvrtc.h" ]; then
  echo "1..0 # SKIP no CUDA toolkit"
  exit 0
fi
cache=${UPK_NPM_CACHE:-$root/.cache/npm}/vscode-ext
. "$root/tests/clients/vsix.sh"
if ! vsix_deps "$ext" "$cache"; then
  echo "1..0 # SKIP npm install of the extension's packages failed (no registry?)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
step() { # step NAME COMMAND...
  n=$((n + 1))
  if "${@:2}" >"$tmp/log" 2>&1; then echo "ok $n - $1"; else
    echo "not ok $n - $1"; sed 's/^/# /' "$tmp/log" | tail -20; echo "1..$n"; exit 1; fi
}
step "tsc type-checks it; vsce packages it (esbuild bundle) without a prompt" \
  vsix_build "$ext" "$cache" "$tmp/ext" "$tmp/upskilld.vsix"
step "the .vsix: manifest, README, LICENSE and one bundled script, nothing else" sh -c "cd '$tmp' && \
  unzip -q upskilld.vsix -d vsix && test -f vsix/extension/package.json && \
  test -f vsix/extension/LICENSE.txt && test -f vsix/extension/README.md && \
  test \$(find vsix/extension -type f | wc -l) -eq 4 && \
  grep -q createWebviewPanel vsix/extension/out/extension.js && \
  grep -q 'textDocument/codeLens' vsix/extension/out/extension.js"
mkdir -p "$tmp/home"
. "$root/tests/clients/cuda_tree.sh"
cuda_tree "$tmp/tree"
# The packaged extension, unpacked, is what runs; its TAP continues this one's numbering.
set +e
HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache" NODE_PATH= \
  timeout 300 node "$ext/test/e2e.js" "$daemon" "$tmp/tree" "$tmp/vsix/extension" >"$tmp/e2e" 2>&1
rc=$?
set -e
python3 "$root/tests/clients/tap_continue.py" "$n" <"$tmp/e2e"
exit $rc
