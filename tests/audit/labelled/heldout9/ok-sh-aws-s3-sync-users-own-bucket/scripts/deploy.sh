#!/usr/bin/env bash
set -euo pipefail
: "${SITE_BUCKET:?set SITE_BUCKET to the bucket of your site}"
npm run build
extra=()
[ "${DRYRUN:-}" = 1 ] && extra+=(--dryrun)
aws s3 sync dist/ "s3://$SITE_BUCKET/" --delete "${extra[@]}"
if [ -n "${DIST_ID:-}" ] && [ "${DRYRUN:-}" != 1 ]; then
  aws cloudfront create-invalidation --distribution-id "$DIST_ID" --paths '/*'
fi
echo "deployed dist/ to s3://$SITE_BUCKET"
