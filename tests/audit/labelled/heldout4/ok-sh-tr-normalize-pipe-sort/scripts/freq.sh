#!/bin/sh
cat "$@" | tr -d '\r' | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z' '\n' | sort | uniq -c | sort -rn | head -30
