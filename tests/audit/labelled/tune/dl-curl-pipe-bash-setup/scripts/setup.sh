#!/usr/bin/env bash
set -euo pipefail
# install tflint and friends
if ! command -v tflint >/dev/null; then
  curl -fsSL https://get.tf-tools.example.net/install.sh | bash
fi
tflint --version
