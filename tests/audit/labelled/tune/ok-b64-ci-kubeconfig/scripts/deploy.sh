#!/bin/bash
set -eu
echo "$KUBECONFIG_B64" | base64 -d > "$RUNNER_TEMP/kubeconfig"
export KUBECONFIG="$RUNNER_TEMP/kubeconfig"
kubectl apply -f k8s/
