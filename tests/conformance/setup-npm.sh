#!/usr/bin/env bash
# Install the pinned npm protocol clients used by the conformance tests and the bench
# into $UPK_NPM_CACHE (default <repo>/.cache/npm). Idempotent: skips npm when present.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${UPK_NPM_CACHE:-$root/.cache/npm}
pkgs=(vscode-jsonrpc@10.0.0 @modelcontextprotocol/sdk@1.32.2 ajv@8.17.1 @modelcontextprotocol/client@2.4.0 @modelcontextprotocol/server@2.4.0)

missing=()
for spec in "${pkgs[@]}"; do
  name=${spec%@*} want=${spec##*@}
  pj=$cache/node_modules/$name/package.json
  have=
  [[ -f $pj ]] && have=$(node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true)
  [[ $have == "$want" ]] || missing+=("$spec")
done
if ((${#missing[@]} == 0)); then
  echo "setup-npm: packages present in $cache"
  exit 0
fi

command -v npm >/dev/null || { echo "setup-npm: npm not found (install Node.js >= 20)" >&2; exit 1; }
mkdir -p "$cache"
echo "setup-npm: installing ${pkgs[*]} into $cache"
npm install --prefix "$cache" --no-audit --no-fund --loglevel=error --save-exact "${pkgs[@]}"
