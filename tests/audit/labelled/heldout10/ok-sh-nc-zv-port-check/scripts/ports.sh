#!/usr/bin/env bash
set -u
check() { nc -zv -w 2 "$1" "$2" >/dev/null 2>&1 && echo "open   $1:$2" || echo "closed $1:$2"; }
check "${DB_HOST:-localhost}" 5432
check "${REDIS_HOST:-localhost}" 6379
check "${API_HOST:-localhost}" 8080
