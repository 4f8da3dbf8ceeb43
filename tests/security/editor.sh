#!/usr/bin/env bash
# The editor path of an untrusted project (issue 44): a cloned kernel-builder project whose
# build.toml names a host compiler it ships, opened in a real headless Neovim with the upskilld
# plugin (clients/nvim). Nothing may run; the refusal shows as a diagnostic. (The same project in
# real VS Code: tests/clients/code_server.sh.) A second clone's build.toml hands nvcc's shell a
# payload through -Xcompiler (a padded -std= value and a -D redirect): refused, no mark left, and
# the daemon answers the next request. Skipped without nvim or a CUDA toolkit.
set -eu
daemon=${UPSKILLD:?set UPSKILLD}
root=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v nvim >/dev/null || { echo "1..0 # SKIP no nvim (scripts/setup.sh --test installs it)"; exit 0; }
[ -r "${CUDA_PATH:-/usr/local/cuda}/include/nvrtc.h" ] || { echo "1..0 # SKIP no CUDA toolkit"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/security/editor/hostile_project.sh"
hostile_project "$tmp/clone" "$tmp/RAN"
mkdir -p "$tmp/clone2/kernel_src"
cat >"$tmp/clone2/build.toml" <<TOML
[general]
name = "evil2"
version = 1
edition = 5
license = "MIT"
backends = ["cuda"]

[kernel.k]
backend = "cuda"
src = ["kernel_src/k.cu"]
cuda-capabilities = ["9.0a"]
cuda-flags = ["-Xcompiler", "-std=c++17aaaaaaaaaaaaaaaaaaaaaaaaaa;touch $tmp/RAN2;", "-Xcompiler", "-D_X>$tmp/FILE2"]
TOML
printf '__global__ void k(float *y) { y[0] = 1.f; }\nvoid launch(float *y) { k<<<1, 1>>>(y); }\n' \
  >"$tmp/clone2/kernel_src/k.cu"
mkdir -p "$tmp/home"
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home/.cache" XDG_CONFIG_HOME="$tmp/home/.config"
export XDG_DATA_HOME="$tmp/home/.local/share" XDG_STATE_HOME="$tmp/home/.local/state"
export UPK_PROJECT="$tmp/clone" UPK_MARKER="$tmp/RAN" UPK_TAP_OUT="$tmp/tap" UPSKILLD="$daemon"
export UPK_PROJECT2="$tmp/clone2" UPK_MARKER2="$tmp/RAN2" UPK_FILE2="$tmp/FILE2"
cd "$tmp/clone"
set +e
timeout 300 nvim --headless -u NONE -i NONE --noplugin --cmd "set rtp^=$root/clients/nvim" \
  --cmd "filetype on" -c "luafile $root/tests/security/editor/nvim_hostile.lua" >"$tmp/nvim.out" 2>&1
rc=$?
set -e
if [ -s "$tmp/tap" ]; then cat "$tmp/tap"; else echo "1..1"; echo "not ok 1 - nvim wrote no TAP (exit $rc)"; fi
if [ -e "$tmp/RAN" ]; then echo "# the project's host compiler ran"; rc=1; fi
if [ -e "$tmp/RAN2" ] || [ -e "$tmp/FILE2" ]; then echo "# the -Xcompiler payload ran"; rc=1; fi
[ $rc -eq 0 ] || sed 's/^/# nvim: /' "$tmp/nvim.out" | head -40
exit $rc
