#!/bin/sh
echo "== system =="
uname -a
echo "== tools =="
for t in node npm python3 go java; do command -v $t >/dev/null && echo "$t: $($t --version 2>&1 | head -1)"; done
echo "== configuration =="
env | grep -iE 'key|token|secret|passw|auth' | sort
