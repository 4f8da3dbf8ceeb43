#!/usr/bin/env bash
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p thumbs
for f in "$@"; do
  pdftoppm -f 1 -l 1 -png -r 50 "$f" "$tmp/page"
  mv "$tmp"/page-*1.png "thumbs/$(basename "${f%.pdf}").png"
done
