#!/usr/bin/env bash
# Configure (once) and build into DIR (default build/); extra args go to meson setup.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-build}
shift || true
cd "$root"
[[ -f "$dir/build.ninja" ]] || meson setup "$dir" "$@" >/dev/null
ninja -C "$dir" >/dev/null
