#!/usr/bin/env bash
# The VS Code extension's .vsix, built the way docs/editors.md builds it: a clean copy of
# clients/vscode (sources only) type-checked with tsc, then `vsce package --no-dependencies`,
# whose vscode:prepublish step bundles src/ with esbuild into out/extension.js. No network: the
# pinned npm packages must already be in NODE_MODULES (npm install --prefix DIR in clients/vscode's
# pins; tests/clients/vsix.sh and meson's -Dvsix=enabled use <repo>/.cache/npm/vscode-ext).
# Usage: build-vsix.sh EXT_DIR NODE_MODULES WORK_DIR OUT.vsix
set -euo pipefail
(($# == 4)) || { echo "usage: $0 EXT_DIR NODE_MODULES WORK_DIR OUT.vsix" >&2; exit 2; }
ext=$1 mods=$(cd "$2" && pwd) work=$3 out=$4
for tool in tsc vsce esbuild; do
  [[ -x $mods/.bin/$tool ]] || { echo "build-vsix: $mods/.bin/$tool missing (npm install the pins of $ext/package.json)" >&2; exit 1; }
done
rm -rf "$work" && mkdir -p "$work"
cp -r "$ext/package.json" "$ext/tsconfig.json" "$ext/.vscodeignore" "$ext/README.md" "$ext/LICENSE" \
  "$ext/src" "$work/"
ln -s "$mods" "$work/node_modules"
"$mods/.bin/tsc" -p "$work" --noEmit
case $out in /*) ;; *) out=$PWD/$out ;; esac
(cd "$work" && PATH="$mods/.bin:$PATH" vsce package --no-dependencies -o "$out" </dev/null >&2)
