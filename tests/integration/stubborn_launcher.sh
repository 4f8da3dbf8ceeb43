#!/bin/sh
# A stand-in for a queued srun, used as --worker-command by test_escalate.c: it never starts the
# worker (its "job" waits in the queue), and it ignores SIGTERM: only the first one (`once`:
# the second ends it) or every one (`always`: only SIGKILL ends it). It writes DIR/PID.log, one
# line per SIGTERM it gets, so the test can find it and see what reached it; the file appears
# once the trap is set.
# Usage: stubborn_launcher.sh once|always DIR upskilld-worker...
mode=$1 dir=$2
cd "$dir" || exit 2 # the test knows its launchers by their working directory
log="$dir/$$.log"
n=0
case $mode in
once) trap 'n=$((n + 1)); echo "TERM $n" >>"$log"; [ "$n" -ge 2 ] && exit 143' TERM ;;
always) trap 'echo "TERM ignored" >>"$log"' TERM ;;
*) exit 2 ;;
esac
: >>"$log" # ready: a SIGTERM from now on is trapped (before, it would simply end us)
# A short foreground sleep: the trap runs as soon as it returns.
while :; do sleep 0.1; done
