#!/bin/sh
set -eu
command -v mise >/dev/null && mise install
[ -f package.json ] && npm ci
[ -f requirements.txt ] && python3 -m pip install -r requirements.txt
