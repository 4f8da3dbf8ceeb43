#!/usr/bin/env bash
set -euo pipefail
: "${DEPLOY_TARGET:?set DEPLOY_TARGET=user@host:/path}"
npm run build
rsync -az --delete --exclude '.DS_Store' dist/ "$DEPLOY_TARGET/"
echo "deployed to $DEPLOY_TARGET"
