#!/usr/bin/env bash
# The VS Code extension (clients/vscode): compiled, packaged into a .vsix with @vscode/vsce, and
# the packaged extension driven end to end against the real daemon with a recording stand-in
# for the `vscode` module (VS Code itself cannot be downloaded here). npm packages, pinned in
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
pins=$(node -e 'const p=require(process.argv[1]);const d={...p.dependencies,...p.devDependencies};
  console.log(Object.entries(d).map(([k,v])=>k+"@"+v).join(" "))' "$ext/package.json")
if [ ! -x "$cache/node_modules/.bin/vsce" ] || [ ! -d "$cache/node_modules/vscode-languageclient" ]; then
  mkdir -p "$cache"
  # shellcheck disable=SC2086
  if ! npm install --prefix "$cache" --no-audit --no-fund --loglevel=error --save-exact $pins >&2; then
    echo "1..0 # SKIP npm install of $pins failed (no registry?)"
    exit 0
  fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ext"
cp -r "$ext/package.json" "$ext/tsconfig.json" "$ext/.vscodeignore" "$ext/README.md" "$ext/src" "$tmp/ext/"
ln -s "$cache/node_modules" "$tmp/ext/node_modules"
n=0
step() { # step NAME COMMAND...
  n=$((n + 1))
  if "${@:2}" >"$tmp/log" 2>&1; then echo "ok $n - $1"; else
    echo "not ok $n - $1"; sed 's/^/# /' "$tmp/log" | tail -20; echo "1..$n"; exit 1; fi
}
step "tsc compiles the extension" "$cache/node_modules/.bin/tsc" -p "$tmp/ext"
step "vsce packages it into a .vsix" sh -c "cd '$tmp/ext' && '$cache/node_modules/.bin/vsce' package \
  --allow-missing-repository -o '$tmp/upskilld.vsix'"
step "the .vsix holds the manifest, the code and vscode-languageclient" sh -c "cd '$tmp' && \
  unzip -q upskilld.vsix -d vsix && test -f vsix/extension/package.json && \
  test -f vsix/extension/out/extension.js && \
  test -f vsix/extension/node_modules/vscode-languageclient/package.json"
mkdir -p "$tmp/home"
. "$root/tests/clients/cuda_tree.sh"
cuda_tree "$tmp/tree"
# The packaged extension, unpacked, is what runs; its TAP continues this one's numbering.
set +e
HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache" NODE_PATH= \
  timeout 300 node "$ext/test/e2e.js" "$daemon" "$tmp/tree" "$tmp/vsix/extension" >"$tmp/e2e" 2>&1
rc=$?
set -e
python3 -c '
import re, sys
base = int(sys.argv[1]); last = base
for line in sys.stdin:
    m = re.match(r"(not ok|ok) (\d+)(.*)", line)
    if m:
        last = base + int(m.group(2)); print(f"{m.group(1)} {last}{m.group(3)}")
    elif re.match(r"1\.\.\d+", line):
        continue
    else:
        print(line, end="")
print(f"1..{last}")' "$n" <"$tmp/e2e"
exit $rc
