#!/usr/bin/env python3
"""A cold `upskillctl audit` (a fresh daemon per run, as CI and a pre-commit hook run it) of one
skill, for a reference binary and a new one, alternating so the machine's load falls on both:
wall-time median and the processes' CPU (user + system of upskillctl and its daemon) per run.

Usage: audit_cold.py REF_UPSKILLCTL NEW_UPSKILLCTL [SKILL_DIR] [--runs N]
(default skill: tests/audit/labelled/tune's first case; N = 20)."""
import argparse
import os
import resource
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one(ctl, skill):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run([ctl, "--json", "audit", skill], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode not in (0, 1):
        raise SystemExit(f"{ctl} audit {skill}: exit {out.returncode}: {out.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("new")
    ap.add_argument("skill", nargs="?")
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    tune = os.path.join(ROOT, "tests/audit/labelled/tune")
    skill = a.skill or os.path.join(tune, sorted(os.listdir(tune))[0])
    runs = {"ref": [], "new": []}
    answers = {}
    for _ in range(a.runs):
        for name, ctl in (("ref", a.ref), ("new", a.new)):
            wall, cpu, text = one(ctl, skill)
            runs[name].append((wall, cpu))
            answers.setdefault(name, text)
    print(f"skill: {skill}; {a.runs} runs each, alternating; load {os.getloadavg()[0]:.1f}")
    print(f"{'':24}{'reference':>12}{'new':>12}")
    for label, i, stat in (("wall p50 (s)", 0, statistics.median),
                           ("CPU a run, mean (s)", 1, statistics.mean)):
        ref, new = (stat(r[i] for r in runs[name]) for name in ("ref", "new"))
        print(f"{label:24}{ref:12.3f}{new:12.3f}")
    same = answers["ref"] == answers["new"]
    print("findings: " + ("the same JSON from both" if same else "DIFFERENT (see --json of each)"))
    return 0 if same else 1


raise SystemExit(main())
