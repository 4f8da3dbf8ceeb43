#!/bin/sh
# A stand-in for a queued srun, used as --worker-command by test_escalate.c: it never starts the
# worker (its "job" waits in the queue), and it ignores SIGTERM: only the first one (`once`:
# the second ends it) or every one (`always`: only SIGKILL ends it). It writes DIR/PID.log, one
# line per SIGTERM it gets, so the test can find it and see what reached it; the file appears
# once the trap is set. Two more modes speak as srun does on stderr:
#   queued   says "srun: job 4242 queued and waiting for resources", ignores every SIGTERM and
#            ends when its job is cancelled (DIR/cancelled-4242 appears: the test's scancel)
#   refuse   says why the scheduler refused the job and exits 1 at once
# Usage: stubborn_launcher.sh once|always|queued|refuse DIR upskilld-worker...
mode=$1 dir=$2
cd "$dir" || exit 2 # the test knows its launchers by their working directory
log="$dir/$$.log"
n=0
case $mode in
once) trap 'n=$((n + 1)); echo "TERM $n" >>"$log"; [ "$n" -ge 2 ] && exit 143' TERM ;;
always | queued) trap 'echo "TERM ignored" >>"$log"' TERM ;;
refuse)
  echo "srun: error: Unable to allocate resources: Requested partition configuration not available now" >&2
  exit 1
  ;;
*) exit 2 ;;
esac
: >>"$log" # ready: a SIGTERM from now on is trapped (before, it would simply end us)
if [ "$mode" = queued ]; then
  echo "srun: job 4242 queued and waiting for resources" >&2
  until [ -e "$dir/cancelled-4242" ]; do sleep 0.1; done
  echo "srun: Job has been cancelled" >&2
  exit 1
fi
# A short foreground sleep: the trap runs as soon as it returns.
while :; do sleep 0.1; done
