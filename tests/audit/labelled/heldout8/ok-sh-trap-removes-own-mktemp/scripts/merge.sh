#!/bin/sh
set -eu
out=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$@"; do cp "$f" "$work/"; done
qpdf --empty --pages "$@" -- "$out"
