#!/usr/bin/env bash
# The Neovim plugin (clients/nvim) in a real headless Neovim (Debian's neovim, >= 0.7) against
# the real daemon: a generated cuda-samples-like tree (cuda_tree.sh),
# opened from its own project. nvim_test.lua writes the TAP; skipped without nvim or a toolkit.
set -eu
daemon=${UPSKILLD:?set UPSKILLD}
root=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v nvim >/dev/null; then
  echo "1..0 # SKIP no nvim (scripts/setup.sh --test installs Debian's neovim)"
  exit 0
fi
cuda=${CUDA_PATH:-/usr/local/cuda}
if [ ! -r "$cuda/include/nvrtc.h" ]; then
  echo "1..0 # SKIP no CUDA toolkit"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/cache"
. "$root/tests/clients/cuda_tree.sh"
cuda_tree "$tmp/tree"
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/home/.config"
export XDG_DATA_HOME="$tmp/home/.local/share" XDG_STATE_HOME="$tmp/home/.local/state"
export UPK_TREE="$tmp/tree" UPK_TAP_OUT="$tmp/tap" UPSKILLD="$daemon"
cd "$tmp/tree/proj"
set +e
timeout 300 nvim --headless -u NONE -i NONE --noplugin \
  --cmd "set rtp^=$root/clients/nvim" --cmd "filetype on" \
  -c "luafile $root/tests/clients/nvim_test.lua" >"$tmp/nvim.out" 2>&1
rc=$?
set -e
if [ -s "$tmp/tap" ]; then
  cat "$tmp/tap"
else
  echo "1..1"
  echo "not ok 1 - nvim wrote no TAP (exit $rc)"
fi
[ $rc -eq 0 ] || sed 's/^/# nvim: /' "$tmp/nvim.out" | head -40
exit $rc
