# shellcheck shell=bash
# upskillctl in the shell tests (bash; sourced after tap.sh). Needs $ctl (the upskillctl binary)
# and $tmp (the test's private directory).
#   run ARGS...        upskillctl ARGS: its stdout, stderr and exit status to $tmp/o, $tmp/e, $tmp/rc
#   rc N               the last run exited N
#   has PATTERN o|e    its stdout (o) or stderr (e) matches PATTERN (grep)
#   ctl_need_toolkit   TAP_SKIP="no CUDA toolkit" unless `upskillctl --json status` reports one
# A failing check shows the last run's stdout and stderr.
# shellcheck disable=SC2034,SC2154 # TAP_DIAG_FILES is tap.sh's; $ctl and $tmp the script's
TAP_DIAG_FILES=("$tmp/o" "$tmp/e")

run() {
  local st=0
  # shellcheck disable=SC2154 # the sourcing script sets $ctl
  "$ctl" "$@" >"$tmp/o" 2>"$tmp/e" </dev/null || st=$?
  echo "$st" >"$tmp/rc"
}

rc() {
  [ "$(cat "$tmp/rc")" = "$1" ]
}

has() {
  grep -q -- "$1" "$tmp/$2"
}

ctl_need_toolkit() {
  # shellcheck disable=SC2034 # read by tap_check
  run --json status
  python3 -c "import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))['cuda']['toolkit']['available'] else 1)" "$tmp/o" \
    2>/dev/null || TAP_SKIP="no CUDA toolkit"
}
