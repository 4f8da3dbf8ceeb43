#!/bin/sh
"$(dirname "$0")/../bin/svgmin" "$@"
