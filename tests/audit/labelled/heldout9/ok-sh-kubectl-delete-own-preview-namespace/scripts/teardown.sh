#!/usr/bin/env bash
set -euo pipefail
ctx=$(kubectl config current-context)
[ "$ctx" = "kind-preview" ] || { echo "refusing: context is $ctx"; exit 1; }
ns="preview-$(git rev-parse --abbrev-ref HEAD | tr '/_' '--' | cut -c1-40)"
kubectl get ns "$ns" --show-labels
read -r -p "delete namespace $ns? [y/N] " ok
[ "$ok" = y ] && kubectl delete ns "$ns"
