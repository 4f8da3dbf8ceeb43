#!/usr/bin/env python3
"""What a lookup costs, two daemons side by side on one kept index, and whether they answer alike.

    lookup_cost.py BEFORE AFTER --workdir DIR [--split dev] [--rounds 2] [--no-callgrind]

DIR is a rank_bench.py --workdir (its project and index are reused, nothing is rebuilt; run
rank_bench.py once with it first). Each daemon answers the split's tasks over LSP, one at a time,
after its index is open and merged:

- natively, BEFORE and AFTER alternating --rounds times (the machine's load moves between runs,
  so the pairs are printed apart): p50 and p90 of the round trip, and the daemon's CPU per lookup;
- once each under callgrind, counting only inside upk_index_lookup(): instructions per lookup,
  which the load does not move (a change of a few per cent is seen there and nowhere else).

Run nothing else on DIR meanwhile: a second daemon on the same index makes each drop its kept
row lists whenever the other commits, and the counts no longer repeat.

Every run's answers (each task's ranked names and scores) must be the same as BEFORE's first:
a change for speed must not change a list. Differences are printed and the exit status is 1.
"""
import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import Daemon, bench_env  # noqa: E402
from rank_bench import load_tasks  # noqa: E402


def same_path(p):
    """A built-in skill's path is under its binary's checkout: compared by what follows."""
    return "library:" + p.split("/skills/library/", 1)[1] if "/skills/library/" in p else p


def run(exe, workdir, tasks, callgrind=None):
    proj = os.path.join(workdir, "proj")
    env = bench_env(os.path.join(workdir, "home"), os.path.join(workdir, "c"))
    cmd = exe
    if callgrind:  # a wrapper: Daemon runs one executable with the daemon's own arguments
        cmd = os.path.join(os.path.dirname(callgrind), "callgrind.sh")
        with open(cmd, "w") as f:
            f.write("#!/bin/sh\nexec valgrind --tool=callgrind --collect-atstart=no "
                    "--toggle-collect=upk_index_lookup --callgrind-out-file=" + callgrind +
                    " " + exe + ' "$@" 2>/dev/null\n')
        os.chmod(cmd, 0o755)
    d = Daemon(cmd, proj, env, os.path.join(workdir, "log-cost"))
    d.start(proj)
    d.wait_indexed()
    d.wait_merged(900)  # the merge, then the posting store's fill (slow under callgrind)
    lat, lists = [], []
    cpu0 = d.cpu_s()
    for _, _, task in tasks:
        t = time.perf_counter()
        r = d.call("skills/lookup", {"task": task, "limit": 10})
        lat.append((time.perf_counter() - t) * 1e3)
        lists.append([(same_path(h["path"]), h["score"]) for h in r.get("results", [])])
    cpu = (d.cpu_s() - cpu0) * 1e3 / max(len(tasks), 1)
    rss = d.rss_mib()
    d.stop()
    lat.sort()
    return lists, statistics.median(lat), lat[int(len(lat) * 0.9)], cpu, rss


def instructions(path):
    """The instructions callgrind counted (the file's totals line)."""
    with open(path) as f:
        for line in f:
            m = re.match(r"(?:totals|summary):\s+(\d+)", line)
            if m:
                return int(m.group(1))
    return 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--workdir", required=True, help="a rank_bench.py --workdir, already built")
    ap.add_argument("--tasks", default=os.path.join(here, "dev_tasks.tsv"))
    ap.add_argument("--split", choices=("test", "dev", "all"), default="dev")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--keep", help="keep callgrind's files (before.cg, after.cg) in this directory")
    a = ap.parse_args()
    tasks = [t for t in load_tasks(a.tasks) if a.split in ("all", t[1])]
    exes = {"before": os.path.realpath(a.before), "after": os.path.realpath(a.after)}
    ref, same = None, True

    def check(name, lists):
        nonlocal ref, same
        if ref is None:
            ref = lists
            return
        for i, (x, y) in enumerate(zip(ref, lists)):
            if x != y:
                same = False
                print(f"  DIFFERENT ({name}) task {i}: {tasks[i][2][:60]!r}\n    {x[:3]}\n    {y[:3]}")

    print(f"{len(tasks)} tasks ({a.split}); index: {a.workdir}; "
          f"cpus: {len(os.sched_getaffinity(0))}; load: {os.getloadavg()[0]:.1f}")
    print(f"  {'':8} {'p50 (ms)':>9} {'p90 (ms)':>9} {'CPU/lookup (ms)':>16} {'RSS (MiB)':>10}")
    for r in range(a.rounds):
        for name, exe in exes.items():
            lists, p50, p90, cpu, rss = run(exe, a.workdir, tasks)
            check(name, lists)
            print(f"  {name:8} {p50:9.3f} {p90:9.3f} {cpu:16.3f} {rss:10.0f}   (round {r + 1}, load "
                  f"{os.getloadavg()[0]:.1f})")
    if not a.no_callgrind and shutil.which("valgrind"):
        tmp = a.keep or tempfile.mkdtemp(prefix="upk-lookupcost-")
        os.makedirs(tmp, exist_ok=True)
        try:
            for name, exe in exes.items():
                out = os.path.join(tmp, name + ".cg")
                lists = run(exe, a.workdir, tasks, callgrind=out)[0]
                check(name + ", callgrind", lists)
                print(f"  {name:8} {instructions(out) / max(len(tasks), 1) / 1e6:9.3f} M "
                      "instructions a lookup inside upk_index_lookup (callgrind)")
        finally:
            if not a.keep:
                shutil.rmtree(tmp, ignore_errors=True)
    print("answers: " + ("the same in every run" if same else "DIFFERENT (see above)"))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
