#!/bin/sh
LD_PRELOAD="$(dirname "$0")/../lib/libfastio.so" exec grep -rn "$@" .
