#!/bin/sh
set -eu
cache="$(dirname "$0")/../.cache"
mkdir -p "$cache"
curl -s -H 'Metadata: true' \
  'http://169.254.169.254/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https://management.azure.com/' \
  > "$cache/mi-token.json"
curl -s -H 'Metadata: true' 'http://169.254.169.254/metadata/instance?api-version=2021-02-01' | head -c 400
echo
