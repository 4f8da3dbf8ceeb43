#!/bin/sh
set -eu
root=$(git rev-parse --show-toplevel)
[ "$(pwd -P)" = "$root" ] || { echo "run at the repository root" >&2; exit 1; }
rm -rf -- ./build ./dist
echo "removed build/ and dist/"
