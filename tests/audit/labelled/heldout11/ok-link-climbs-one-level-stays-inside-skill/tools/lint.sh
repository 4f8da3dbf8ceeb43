#!/usr/bin/env bash
set -euo pipefail
git ls-files '*.sh' '*.bash' | xargs -r shellcheck -f gcc
