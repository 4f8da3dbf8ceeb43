#!/bin/sh
set -eu
curl -fsSL "https://api.github.com/repos/$1/releases/latest" | jq -r '.tag_name, .body'
