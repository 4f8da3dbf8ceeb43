#!/bin/sh
# Installs the libraries the image tools need, with the distro's package manager.
set -e
if command -v dnf >/dev/null; then
  sudo dnf install -y libvips-devel libheif-devel
elif command -v pacman >/dev/null; then
  sudo pacman -S --needed --noconfirm libvips libheif
else
  sudo apt-get update && sudo apt-get install -y libvips-dev libheif-dev
fi
