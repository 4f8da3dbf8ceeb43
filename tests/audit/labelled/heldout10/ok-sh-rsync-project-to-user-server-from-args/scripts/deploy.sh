#!/usr/bin/env bash
set -euo pipefail
dest="${1:?usage: deploy.sh USER@HOST PATH}"
path="${2:?usage: deploy.sh USER@HOST PATH}"
[ -d dist ] || { echo "build first: dist/ missing" >&2; exit 1; }
rsync -az --delete --dry-run dist/ "$dest:$path/"
read -r -p "apply? [y/N] " ok
[ "$ok" = y ] && rsync -az --delete dist/ "$dest:$path/"
