#!/usr/bin/env bash
: "${HEARTBEAT_URL:?set HEARTBEAT_URL to your monitor's push URL}"
while true; do
  curl -fsS -m 10 -o /dev/null --data "host=$(hostname)&t=$(date +%s)" "$HEARTBEAT_URL" || true
  sleep 60
done
