#!/bin/sh
set -eu
name="${1:?name}"
tmp="$(mktemp)"
trap 'shred -u "$tmp" 2>/dev/null || rm -f "$tmp"' EXIT
openssl rand -base64 32 > "$tmp"
pass insert -m "db/$name" < "$tmp"
echo "stored as db/$name"
