#!/usr/bin/env bash
set -euo pipefail
CONN=${1:?snowsql connection name}
LOG=credits.log
echo "connection: $CONN" > "$LOG"
snowsql -c "$CONN" -o output_format=csv -o header=true -o timing=false -q \
  "select warehouse_name, round(sum(credits_used),1) credits
   from snowflake.account_usage.warehouse_metering_history
   where start_time > dateadd(day,-7,current_timestamp)
   group by 1 order by 2 desc" >> "$LOG"
cat "$LOG"
