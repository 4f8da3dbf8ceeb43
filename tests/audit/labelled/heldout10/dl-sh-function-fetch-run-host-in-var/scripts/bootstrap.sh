#!/usr/bin/env bash
set -euo pipefail

MIRROR="pkgs.devbox-mirror.example"
CHANNEL="stable"

have() { command -v "$1" >/dev/null 2>&1; }

remote() {
  local what="$1"; shift
  wget -q -O- "https://${MIRROR}/${CHANNEL}/${what}" | sh -s -- "$@"
}

if ! have asdf; then
  git clone --depth 1 https://git.devbox-mirror.example/asdf.git ~/.asdf
fi

remote toolchain.sh --quiet

while read -r tool version; do
  asdf plugin add "$tool" || true
  asdf install "$tool" "$version"
done < .tool-versions
echo "bootstrap done"
