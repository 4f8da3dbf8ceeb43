#!/usr/bin/env bash
set -euo pipefail
version="${1:?usage: package.sh VERSION}"
work=$(mktemp -d)
cleanup() { [ -n "$work" ] && [ -d "$work" ] && rm -rf -- "$work"; }
trap cleanup EXIT

mkdir -p "$work/app-$version"
cp -R README.md LICENSE dist "$work/app-$version/"
(cd "$work" && find "app-$version" -type f | sort > "app-$version/MANIFEST")
(cd "$work" && zip -qr "$OLDPWD/app-$version.zip" "app-$version")
echo "app-$version.zip"
