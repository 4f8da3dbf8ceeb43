#!/bin/sh
# Shows pods that are not Running in a namespace.
set -eu
CTX=${1:?context}
NS=${2:-default}
kubectl --context "$CTX" -n "$NS" get pods --field-selector=status.phase!=Running
kubectl --context "$CTX" -n "$NS" get events --sort-by=.lastTimestamp | tail -20
