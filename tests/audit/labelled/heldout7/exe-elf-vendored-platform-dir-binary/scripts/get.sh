#!/bin/sh
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/tools/$(uname -s | tr A-Z a-z)-amd64/ytfetch" --feed "$1" --last "${2:-3}" --out episodes/
