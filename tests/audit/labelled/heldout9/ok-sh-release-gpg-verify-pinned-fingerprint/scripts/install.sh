#!/usr/bin/env bash
set -euo pipefail
ver=${1:?version}
base="https://github.com/FiloSottile/age/releases/download/v$ver"
file="age-v$ver-linux-amd64.tar.gz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

curl -fsSL -o "$tmp/$file" "$base/$file"
curl -fsSL -o "$tmp/$file.sig" "$base/$file.sig"
# maintainer key, fingerprint checked out of band
gpg --status-fd 1 --verify "$tmp/$file.sig" "$tmp/$file" 2>/dev/null |
  grep -q 'VALIDSIG 0123456789ABCDEF0123456789ABCDEF01234567' || { echo "bad signature"; exit 1; }
tar -xzf "$tmp/$file" -C "$tmp"
install -m 755 "$tmp/age/age" "$tmp/age/age-keygen" ~/.local/bin/
age --version
