#!/usr/bin/env bash
set -euo pipefail
db_url=${1:?database url}
recipient_file=${2:?age public key file}
mkdir -p backups
name=$(psql "$db_url" -Atc 'select current_database()')
out="backups/$name-$(date +%Y%m%dT%H%M%S).dump.age"
pg_dump --format=custom "$db_url" | age -R "$recipient_file" > "$out"
chmod 600 "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
