#!/usr/bin/env bash
# upskilld in a real Emacs (Debian's emacs-nox 28 + elpa-eglot) in batch, against the real
# daemon, on the cuda_tree project (cuda_tree.sh): flymake diagnostics on the right line, a
# hover, and a clean eglot-shutdown. emacs_test.el writes the TAP; skipped without emacs,
# eglot or a CUDA toolkit.
set -eu
daemon=${UPSKILLD:?set UPSKILLD}
root=${UPK_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v emacs >/dev/null || ! emacs --batch --eval "(require 'eglot)" >/dev/null 2>&1; then
  echo "1..0 # SKIP no emacs with eglot (scripts/setup.sh --test installs emacs-nox elpa-eglot)"
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
git init -q "$tmp/tree/proj" # a project eglot finds for each file it opens
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/home/.config"
export UPK_TREE="$tmp/tree" UPK_TAP_OUT="$tmp/tap" UPSKILLD="$daemon"
set +e
timeout 300 emacs --batch -l "$root/tests/clients/emacs_test.el" >"$tmp/emacs.out" 2>&1
rc=$?
set -e
if [ -s "$tmp/tap" ]; then
  cat "$tmp/tap"
else
  echo "1..1"
  echo "not ok 1 - emacs wrote no TAP (exit $rc)"
fi
[ $rc -eq 0 ] || sed 's/^/# emacs: /' "$tmp/emacs.out" | tail -40
exit $rc
