#!/bin/bash
set -eu
rm -rf build/ dist/ .cache/
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j
