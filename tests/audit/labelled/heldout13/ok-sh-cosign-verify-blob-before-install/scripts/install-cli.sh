#!/usr/bin/env bash
set -euo pipefail
ver=${1:?version}
base="https://github.com/example-org/relctl/releases/download/v$ver"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
curl -fsSLO "$base/relctl_${ver}_linux_amd64.tar.gz"
curl -fsSLO "$base/relctl_${ver}_linux_amd64.tar.gz.sigstore.json"
cosign verify-blob "relctl_${ver}_linux_amd64.tar.gz" \
  --bundle "relctl_${ver}_linux_amd64.tar.gz.sigstore.json" \
  --certificate-identity "https://github.com/example-org/relctl/.github/workflows/release.yml@refs/tags/v$ver" \
  --certificate-oidc-issuer https://token.actions.githubusercontent.com
tar xzf "relctl_${ver}_linux_amd64.tar.gz" relctl
install -m 0755 relctl ~/.local/bin/relctl
echo "relctl $ver installed"
