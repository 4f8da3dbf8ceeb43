#!/usr/bin/env bash
# The PyTorch-reference speedups of upskilld beside a plain torch.cuda.Event timing of the same
# kernels, of eager PyTorch and of torch.compile (bench/pytorch/crosscheck.py), for the problems of
# tests/gpu/kernelbench/, in the same invocation. Needs a GPU and a python3 with CUDA torch
# (PYTHON, default $UPSKILLD_PYTHON, else python3). Prints a row per problem: upskilld's verdict,
# its speedups over eager and over torch.compile, the plain timing's, and the ratio of the eager
# speedups; then fast_1 (correct and faster) over eager and over torch.compile, KernelBench's
# measure. Exit status 0 when every ratio is within 5 %. BUILD: build dir (default build).
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
tmp=$(mktemp -d)
# One inductor cache for upskilld's helper and the plain timing: the second torch.compile of a
# model is a cache hit, not a second build (the timings are of the compiled code either way).
export UPSKILLD_PYTHON=$python UPSKILLD_WORKER_SERVER_IDLE=0 TORCHINDUCTOR_CACHE_DIR=$tmp/inductor
trap 'rm -rf "$tmp"' EXIT
printf '%-48s %-4s %9s %9s %9s %9s %7s %s\n' PROBLEM OK VS-EAGER VS-COMPILE PLAIN-E PLAIN-C RATIO WITHIN-5%
bad=0 n=0 fast_e=0 fast_c=0
# UNTIL (seconds since the epoch, gpu-run.sh sets it from its step's end): a problem that starts
# with under 60 s left is cut and named, not started and killed half way.
cut=0
for py in "$kb"/problems/*.py; do
  name=$(basename "$py" .py)
  if [[ -n ${UNTIL:-} ]] && ((UNTIL - EPOCHSECONDS < 60)); then
    echo "ok - $name # SKIP cut: $((UNTIL - EPOCHSECONDS)) s left of the step (two torch.compile builds need more)"
    cut=$((cut + 1))
    continue
  fi
  # The same spec with torch.compile timed too (run.reference.pytorch.compile).
  "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d.get("run",d); r["reference"]["pytorch"]["compile"]=True; json.dump(d,open(sys.argv[2],"w"))' \
    "$kb/kernels/$name.json" "$tmp/$name.json"
  ok='' plain=''
  read -r ok ours ours_c < <({ "$ctl" --json check-kernel "$kb/kernels/$name.cu" --against "$py" \
    --run "$tmp/$name.json" || true; } | "$python" -c 'import json,sys
r=json.load(sys.stdin)["run"]
print("yes" if r.get("ok") else "no", r.get("speedup") or "nan", r.get("pytorch", {}).get("compileSpeedup") or "nan")') || true
  read -r plain plain_c < <("$python" "$here/crosscheck.py" --compile "$py" "$kb/kernels/$name.cu" \
    "$kb/kernels/$name.json" | "$python" -c 'import json,sys; r=json.load(sys.stdin); print(r["speedup"], r.get("compileSpeedup","nan"))') || true
  if [[ -z $ok || -z $plain ]]; then
    echo "not ok - $name: no answer from $([[ -z $ok ]] && echo upskilld || echo the plain timing)"
    bad=1
    continue
  fi
  read -r ratio within fe fc < <("$python" -c "
o, p, c, ok = float('$ours'), float('$plain'), float('$ours_c'), '$ok' == 'yes'
r = o / p
print(f'{r:.3f}', 'yes' if abs(r - 1) <= 0.05 else 'NO', int(ok and o > 1), int(ok and c > 1))")
  [[ $within == yes ]] || bad=1
  n=$((n + 1)) fast_e=$((fast_e + fe)) fast_c=$((fast_c + fc))
  printf '%-48s %-4s %9.3f %9.3f %9.3f %9.3f %7s %s\n' "$name" "$ok" "$ours" "$ours_c" "$plain" "$plain_c" "$ratio" "$within"
  echo "$([[ $within == yes ]] || echo 'not ')ok - $name: upskilld's eager speedup within 5 % of the plain timing's ($ratio)"
done
echo "fast_1 over eager: $fast_e/$n; fast_1 over torch.compile: $fast_c/$n (correct and faster, as upskilld judged)"
((cut == 0)) || echo "$cut problem(s) cut for time: not measured"
exit $bad
