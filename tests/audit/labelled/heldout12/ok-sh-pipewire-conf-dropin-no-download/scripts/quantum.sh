#!/usr/bin/env bash
set -euo pipefail
q=${1:-1024}
case "$q" in 256|512|1024|2048) ;; *) echo "quantum must be 256-2048" >&2; exit 2 ;; esac
d=~/.config/pipewire/pipewire.conf.d
mkdir -p "$d"
printf 'context.properties = {\n  default.clock.quantum = %s\n}\n' "$q" > "$d/90-quantum.conf"
systemctl --user restart pipewire pipewire-pulse
echo "quantum set to $q"
