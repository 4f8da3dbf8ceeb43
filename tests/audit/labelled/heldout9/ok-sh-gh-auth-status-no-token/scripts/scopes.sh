#!/usr/bin/env bash
set -euo pipefail
status=$(gh auth status 2>&1)
echo "$status" | grep -E 'Logged in|Token scopes'
for want in "$@"; do
  if echo "$status" | grep -q "'$want'"; then
    echo "ok: $want"
  else
    echo "missing: $want  (run: gh auth refresh -s $want)"
  fi
done
