#!/usr/bin/env bash
set -euo pipefail
unit=${1:?unit}
since=${2:-1h}
journalctl -u "$unit" --since "-$since" -p err --no-pager -o short-iso | tail -200 > /tmp/errors.$$
echo "errors in the last $since: $(wc -l < /tmp/errors.$$)"
cut -d' ' -f3- /tmp/errors.$$ | sort | uniq -c | sort -rn | head -10
rm -f /tmp/errors.$$
