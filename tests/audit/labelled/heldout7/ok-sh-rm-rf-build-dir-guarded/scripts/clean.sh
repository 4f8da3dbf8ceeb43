#!/usr/bin/env bash
set -euo pipefail
top=$(git rev-parse --show-toplevel)
cd "$top"
for d in build dist .cache/tsbuildinfo; do
  [ -e "./$d" ] && rm -rf -- "./$d" && echo "removed $d"
done
