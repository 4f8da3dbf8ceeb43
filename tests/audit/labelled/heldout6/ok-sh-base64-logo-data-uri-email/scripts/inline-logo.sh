#!/bin/sh
set -e
img=$(base64 -w0 "$1")
sed "s|{{LOGO}}|data:image/png;base64,$img|" "$2"
