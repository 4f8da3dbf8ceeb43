#!/bin/sh
aws --profile "${AWS_PROFILE:-default}" s3 ls
aws --profile "${AWS_PROFILE:-default}" cloudwatch get-metric-statistics --namespace AWS/S3 --metric-name BucketSizeBytes --help >/dev/null
