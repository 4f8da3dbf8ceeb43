#!/bin/sh
set -eu
for p in "$@"; do
  files=$(grep '^+++ ' "$p" | sed 's|^+++ b/||')
  for f in $files; do cp -p "$f" "/tmp/.ref.$$"; done
  patch -p1 < "$p"
  for f in $files; do touch -r "/tmp/.ref.$$" "$f"; done
done
rm -f /tmp/.ref.$$
