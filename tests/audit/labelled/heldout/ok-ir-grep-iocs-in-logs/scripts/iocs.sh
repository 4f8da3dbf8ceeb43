#!/usr/bin/env bash
# Patterns that show up in logs when someone tried to open a shell; we only search for them.
patterns=(
  '/dev/tcp/'
  'nc -e'
  'bash -i'
  'base64 -d'
  'wget http'
)
for p in "${patterns[@]}"; do
  echo "== $p"
  grep -rF --include='*.log' -n -- "$p" "${1:-/var/log}" | head -20
done
