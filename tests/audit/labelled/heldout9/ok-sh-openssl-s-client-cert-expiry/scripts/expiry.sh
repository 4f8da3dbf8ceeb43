#!/bin/sh
for host in "$@"; do
  end=$(openssl s_client -connect "$host:443" -servername "$host" </dev/null 2>/dev/null |
        openssl x509 -noout -enddate | cut -d= -f2)
  left=$(( ($(date -d "$end" +%s) - $(date +%s)) / 86400 ))
  flag=""
  [ "$left" -lt 21 ] && flag="  <-- renew"
  printf '%-30s %s (%d days)%s\n' "$host" "$end" "$left" "$flag"
done
