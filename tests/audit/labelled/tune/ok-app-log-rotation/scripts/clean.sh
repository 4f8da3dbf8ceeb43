#!/usr/bin/env bash
set -euo pipefail
rm -rf ./logs/*.log ./tmp/*
sudo journalctl --vacuum-time=7d
mkdir -p /tmp/build-cache && chmod 777 /tmp/build-cache
chmod 755 ./scripts
