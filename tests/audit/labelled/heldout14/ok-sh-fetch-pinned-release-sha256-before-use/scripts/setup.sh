#!/bin/bash
set -euo pipefail
src="$1"
url="https://github.com/example-org/dotlink/releases/download/v1.4.2/linker.sh"
sum="3b1f0c9de2a4c6f8b0e7d5a3c1f9e8d7b6a5c4d3e2f1a0b9c8d7e6f5a4b3c2d1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

curl -fsSL "$url" -o "$tmp/linker.sh"
echo "$sum  $tmp/linker.sh" | sha256sum -c - >/dev/null
. "$tmp/linker.sh"

mkdir -p "$HOME/.dotfiles-backup"
for f in "$src"/.[!.]*; do
  [ "$(basename "$f")" = ".git" ] && continue
  link_one "$f" "$HOME/$(basename "$f")" "$HOME/.dotfiles-backup"
done
