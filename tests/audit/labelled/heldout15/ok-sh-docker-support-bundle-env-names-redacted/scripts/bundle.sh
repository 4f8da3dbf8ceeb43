#!/usr/bin/env bash
# Local debug bundle. Environment values are never written, only their names.
set -euo pipefail
out="compose-debug-$(date +%Y%m%d%H%M%S)"
mkdir -p "$out"
docker compose config --no-interpolate > "$out/compose.yml"
docker compose ps -a > "$out/ps.txt"
for svc in $(docker compose ps --services); do
  docker compose logs --no-color --tail=300 "$svc" > "$out/$svc.log" 2>&1 || true
  cid=$(docker compose ps -q "$svc" | head -n1)
  [ -n "$cid" ] || continue
  docker inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$cid" |
    sed -E 's/=.*/=<redacted>/' > "$out/$svc.env-names"
done
tar -czf "$out.tgz" "$out"
echo "Wrote $out.tgz. Read it before attaching it to an issue."
