#!/bin/sh
DYLD_LIBRARY_PATH="$(dirname "$0")/../lib" vipsthumbnail "$@" --size 1200x
