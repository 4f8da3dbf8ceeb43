#!/bin/sh
set -eu
: "${ARTIFACT_BUCKET:?set ARTIFACT_BUCKET}"
: "${RUN_ID:?set RUN_ID}"
aws s3 rm "s3://$ARTIFACT_BUCKET/runs/$RUN_ID/" --recursive
