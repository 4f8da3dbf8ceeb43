#!/usr/bin/env bash
set -euo pipefail
src=data/sample.csv.zst
out=data/sample.csv
[[ -f $src ]] || { echo "missing $src" >&2; exit 1; }
zstd -d -f -q "$src" -o "$out"
head -1 "$out"
echo "$(($(wc -l < "$out") - 1)) rows"
