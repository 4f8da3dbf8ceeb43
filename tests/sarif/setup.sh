#!/usr/bin/env bash
# Install what tests/sarif checks --sarif files with, pinned, into $UPK_NPM_CACHE/sarif (default
# <repo>/.cache/npm/sarif): Microsoft's SARIF Multitool (@microsoft/sarif-multitool, a
# self-contained .NET program shipped through npm; its `validate` checks the SARIF 2.1.0 schema
# and the SARIF rules), whose Linux package also ships the published schema (sarif-2.1.0.json)
# that ajv (with ajv-formats) checks the files against as well. Idempotent: skips npm when all
# are present. Exit 1: npm failed (the registry unreachable); the test then skips those checks
# saying so.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
prefix=${UPK_NPM_CACHE:-$root/.cache/npm}/sarif
pkgs=(@microsoft/sarif-multitool@5.7.0 @microsoft/sarif-multitool-linux@5.7.0 ajv@8.17.1 ajv-formats@3.0.1)

missing=()
for spec in "${pkgs[@]}"; do
  name=${spec%@*} want=${spec##*@}
  pj=$prefix/node_modules/$name/package.json
  have=
  [[ -f $pj ]] && have=$(node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true)
  [[ $have == "$want" ]] || missing+=("$spec")
done
((${#missing[@]} == 0)) && { echo "sarif setup: packages present in $prefix"; exit 0; }

command -v npm >/dev/null || { echo "sarif setup: npm not found (install Node.js >= 20)" >&2; exit 1; }
mkdir -p "$prefix"
echo "sarif setup: installing ${pkgs[*]} into $prefix"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error --save-exact "${pkgs[@]}" </dev/null
