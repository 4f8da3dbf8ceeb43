#!/usr/bin/env bash
# The PyTorch-reference speedups of upskilld beside a plain torch.cuda.Event timing of the same
# kernels and of eager PyTorch (bench/pytorch/crosscheck.py), for the problems of
# tests/gpu/kernelbench/, in the same invocation. Needs a GPU and a python3 with CUDA torch
# (PYTHON, default $UPSKILLD_PYTHON, else python3). Prints a row per problem: both speedups and
# their ratio; exit status 0 when every ratio is within 5 %. BUILD: build dir (default build).
set -euo pipefail
# In the GPU pack (scripts/gpu-pack.sh) gpu-run.sh sets UPSKILLCTL, UPSKILLD and UPK_SOURCE_ROOT:
# then nothing is built.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-${UPSKILLD_PYTHON:-python3}}
if [[ -n ${UPSKILLCTL:-} ]]; then
  kb=${UPK_SOURCE_ROOT:-$root}/tests/gpu/kernelbench
  ctl=$UPSKILLCTL
else
  cd "$root"
  build=${BUILD:-build}
  kb=tests/gpu/kernelbench
  [[ -f $build/build.ninja ]] || meson setup "$build" >/dev/null
  ninja -C "$build" >/dev/null
  export UPSKILLD=$build/daemon/upskilld
  ctl=$build/clients/upskillctl
fi
export UPSKILLD_PYTHON=$python UPSKILLD_WORKER_SERVER_IDLE=0
printf '%-50s %10s %10s %8s  %s\n' PROBLEM UPSKILLD PLAIN RATIO WITHIN-5%
bad=0
for py in "$kb"/problems/*.py; do
  name=$(basename "$py" .py)
  ours=$({ "$ctl" --json check-kernel "$kb/kernels/$name.cu" --against "$py" \
    --run "$kb/kernels/$name.json" || true; } | "$python" -c 'import json,sys; r=json.load(sys.stdin)["run"]; print(r.get("speedup") or "nan")')
  plain=$("$python" "$here/crosscheck.py" "$py" "$kb/kernels/$name.cu" "$kb/kernels/$name.json" |
    "$python" -c 'import json,sys; print(json.load(sys.stdin)["speedup"])')
  read -r ratio ok < <("$python" -c "r=float('$ours')/float('$plain'); print(f'{r:.3f}', 'yes' if abs(r-1)<=0.05 else 'NO')")
  [[ $ok == yes ]] || bad=1
  printf '%-50s %10s %10s %8s  %s\n' "$name" "$ours" "$plain" "$ratio" "$ok"
done
exit $bad
