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
[ -s "$tmp/tap" ] || echo "not ok 1 - emacs wrote no TAP (exit $rc)" >"$tmp/tap"
[ $rc -eq 0 ] || sed 's/^/# emacs: /' "$tmp/emacs.out" | tail -40 >>"$tmp/tap"

# docs/editors.md's elisp block as written, `upskilld` found on PATH: a .cu file opens in
# c++-mode and eglot's own lookup (eglot--guess-contact) connects to `upskilld --lsp`.
mkdir -p "$tmp/bin"
ln -s "$(cd "$(dirname "$daemon")" && pwd)/$(basename "$daemon")" "$tmp/bin/upskilld"
python3 - "$root/docs/editors.md" >"$tmp/snippet.el" <<'PY'
import re, sys
print(re.findall(r"```elisp\n(.*?)```", open(sys.argv[1]).read(), re.S)[0])
PY
set +e
(cd "$tmp/tree/proj" && PATH="$tmp/bin:$PATH" timeout 60 emacs --batch --eval "(progn
  (require 'eglot) (load \"$tmp/snippet.el\") (find-file \"src/heavy.cu\")
  (let ((s (apply #'eglot (eglot--guess-contact))))
    (princ (format \"snippet: %s %S %s\n\" major-mode (process-command (jsonrpc--process s))
                   (and (jsonrpc-running-p s) 'running)))))") >"$tmp/snippet.out" 2>&1
set -e
if grep -q '^snippet: c++-mode ("upskilld" "--lsp") running$' "$tmp/snippet.out"; then
  echo "ok 1 - docs/editors.md's eglot snippet: .cu in c++-mode, eglot connects to upskilld --lsp" >>"$tmp/tap"
else
  echo "not ok 1 - docs/editors.md's eglot snippet does not connect" >>"$tmp/tap"
  sed 's/^/# /' "$tmp/snippet.out" | tail -20 >>"$tmp/tap"
  rc=1
fi
# One plan for both parts: number the results again.
awk '/^(not )?ok [0-9]+/ { k++; sub(/ok [0-9]+/, "ok " k) } !/^1\.\./ { print } END { print "1.." k }' \
  "$tmp/tap"
exit $rc
