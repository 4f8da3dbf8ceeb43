# shellcheck shell=bash
# TAP for the shell tests (bash; sourced). Safe under set -e and set -u.
#   tap_plan N                  the plan up front (else tap_finish prints "1..<count>" at the end)
#   tap_ok NAME                 a passing test
#   tap_skip NAME REASON        a skipped one (# SKIP REASON)
#   tap_not_ok NAME [FILE...]   a failing one, then the last $TAP_DIAG_LINES lines of each FILE
#                               (default: the files in TAP_DIAG_FILES) as # comments
#   tap_result NAME STATUS [FILE...]   ok when STATUS is 0, else as tap_not_ok
#   tap_check NAME COMMAND...   COMMAND's status decides. Skipped with the reason in TAP_SKIP while
#                               that is set (`TAP_SKIP= tap_check ...` runs one regardless). Its
#                               output goes to $TAP_CAPTURE when set (and is shown on failure),
#                               else to stderr: it never mixes with the TAP stream.
#   tap_diag TEXT...            # comment lines
#   tap_finish                  the late plan if none was printed; exit 0, or 1 if any failed
# shellcheck disable=SC2034 # TAP_* are the sourcing script's to set
tap_n=0
tap_failed=0
tap_planned=
TAP_SKIP=
TAP_CAPTURE=
TAP_DIAG_FILES=()
TAP_DIAG_LINES=30

tap_plan() {
  tap_planned=$1
  echo "1..$1"
}

tap_ok() {
  tap_n=$((tap_n + 1))
  echo "ok $tap_n - $1"
}

tap_skip() {
  tap_n=$((tap_n + 1))
  echo "ok $tap_n - $1 # SKIP $2"
}

tap_diag() {
  printf '%s\n' "$@" | sed 's/^/# /'
}

tap_not_ok() {
  tap_n=$((tap_n + 1))
  tap_failed=$((tap_failed + 1))
  echo "not ok $tap_n - $1"
  shift
  [ $# -gt 0 ] || set -- ${TAP_DIAG_FILES[@]+"${TAP_DIAG_FILES[@]}"}
  local f
  for f in "$@"; do
    [ -s "$f" ] && tail -n "$TAP_DIAG_LINES" "$f" | sed 's/^/# /'
  done
  return 0
}

tap_result() {
  if [ "$2" = 0 ]; then
    tap_ok "$1"
  else
    tap_not_ok "$1" "${@:3}"
  fi
}

tap_check() {
  if [ -n "$TAP_SKIP" ]; then
    tap_skip "$1" "$TAP_SKIP"
  elif [ -n "$TAP_CAPTURE" ]; then
    if "${@:2}" >"$TAP_CAPTURE" 2>&1; then
      tap_ok "$1"
    else
      tap_not_ok "$1" "$TAP_CAPTURE" ${TAP_DIAG_FILES[@]+"${TAP_DIAG_FILES[@]}"}
    fi
  elif "${@:2}" >&2; then
    tap_ok "$1"
  else
    tap_not_ok "$1"
  fi
}

tap_finish() {
  [ -n "$tap_planned" ] || echo "1..$tap_n"
  exit $((tap_failed > 0))
}
