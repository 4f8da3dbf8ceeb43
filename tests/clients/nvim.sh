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
[ -s "$tmp/tap" ] || echo "not ok 1 - nvim wrote no TAP (exit $rc)" >"$tmp/tap"
[ $rc -eq 0 ] || sed 's/^/# nvim: /' "$tmp/nvim.out" | head -40 >>"$tmp/tap"

# The docs' lua snippets as written, each as init.lua, the plugin where an install puts it
# (<prefix>/share/nvim/site/pack/upskilld/start/upskilld, found through XDG_DATA_DIRS).
mkdir -p "$tmp/share/nvim/site/pack/upskilld/start" "$tmp/bin" "$tmp/snip"
ln -s "$root/clients/nvim" "$tmp/share/nvim/site/pack/upskilld/start/upskilld"
ln -s "$(cd "$(dirname "$daemon")" && pwd)/$(basename "$daemon")" "$tmp/bin/upskilld"
python3 - "$tmp/snip" "$root/README.md" "$root/docs/editors.md" <<'PY'
import re, sys, os
for doc in sys.argv[2:]:
    blocks = re.findall(r"```lua\n(.*?)```", open(doc).read(), re.S)
    for i, b in enumerate(b for b in blocks if "require('upskilld').setup" in b):
        open(os.path.join(sys.argv[1], f"{os.path.basename(doc)}-{i + 1}.lua"), "w").write(b)
PY
# No upskilld to be found: only where none is installed here.
not_found=1
for p in /usr/local/bin/upskilld /usr/bin/upskilld; do [ -x "$p" ] && not_found=0; done
for snip in "$tmp"/snip/*.lua; do
  XDG_DATA_DIRS="$tmp/share" UPK_SNIPPET=$(basename "$snip") UPK_TAP_OUT="$tmp/tap.snip" \
    UPK_NOT_FOUND=$not_found UPK_BIN="$tmp/bin" PATH=/usr/bin:/bin \
    timeout 60 "$(command -v nvim)" --headless -i NONE -u "$snip" \
    -c "luafile $root/tests/clients/nvim_snippet.lua" >"$tmp/nvim.out" 2>&1 || rc=1
  cat "$tmp/tap.snip" >>"$tmp/tap" 2>/dev/null || echo "not ok 1 - $snip: no TAP" >>"$tmp/tap"
done
# One plan for both parts: number the results again.
awk '/^(not )?ok [0-9]+/ { k++; sub(/ok [0-9]+/, "ok " k) } !/^1\.\./ { print } END { print "1.." k }' \
  "$tmp/tap"
exit $rc
