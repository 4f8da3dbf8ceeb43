#!/usr/bin/env bash
# The editor path of an untrusted project (issue 44): a cloned kernel-builder project whose
# build.toml names a host compiler it ships, opened in a real headless Neovim with the upskilld
# plugin (clients/nvim). Nothing may run; the refusal shows as a diagnostic. (The same project in
# real VS Code: tests/clients/code_server.sh.) Skipped without nvim or a CUDA toolkit.
set -eu
daemon=${UPSKILLD:?set UPSKILLD}
root=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v nvim >/dev/null || { echo "1..0 # SKIP no nvim (scripts/setup.sh --test installs it)"; exit 0; }
[ -r "${CUDA_PATH:-/usr/local/cuda}/include/nvrtc.h" ] || { echo "1..0 # SKIP no CUDA toolkit"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/security/editor/hostile_project.sh"
hostile_project "$tmp/clone" "$tmp/RAN"
mkdir -p "$tmp/home"
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache" XDG_CONFIG_HOME="$tmp/home/.config"
export XDG_DATA_HOME="$tmp/home/.local/share" XDG_STATE_HOME="$tmp/home/.local/state"
export UPK_PROJECT="$tmp/clone" UPK_MARKER="$tmp/RAN" UPK_TAP_OUT="$tmp/tap" UPSKILLD="$daemon"
cd "$tmp/clone"
set +e
timeout 300 nvim --headless -u NONE -i NONE --noplugin --cmd "set rtp^=$root/clients/nvim" \
  --cmd "filetype on" -c "luafile $root/tests/security/editor/nvim_hostile.lua" >"$tmp/nvim.out" 2>&1
rc=$?
set -e
if [ -s "$tmp/tap" ]; then cat "$tmp/tap"; else echo "1..1"; echo "not ok 1 - nvim wrote no TAP (exit $rc)"; fi
if [ -e "$tmp/RAN" ]; then echo "# the project's host compiler ran"; rc=1; fi
[ $rc -eq 0 ] || sed 's/^/# nvim: /' "$tmp/nvim.out" | head -40
exit $rc
