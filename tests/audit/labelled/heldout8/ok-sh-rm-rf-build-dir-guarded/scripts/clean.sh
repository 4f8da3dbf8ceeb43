#!/usr/bin/env bash
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "${root:?}/build" "${root:?}/dist"
echo "cleaned $root/build and $root/dist"
