#!/usr/bin/env python3
"""Skill lookup against a bare FTS5 bm25() baseline, on one index, in one run.

    rank_bench.py UPSKILLD --corpus DIR [--tasks dev_tasks.tsv] [--size 40000]
                  [--split test] [--ranks FILE] [--lists FILE] [-v]

CORPUS is a checkout of a public registry's skills (<dir>/SKILL.md), e.g.
github.com/tomevault-io/skills-registry (61,452 skills). The index holds the
task set's skills plus the registry's first others (sorted) up to --size,
one skill per name (agents load one skill of a name, docs/skills.md). Both
systems index exactly those files:

- upskilld: a fresh daemon (no cache) on a throw-away project whose
  .claude/skills holds them; the first full index is timed from initialize
  until a lookup no longer reports `indexing`; tasks go through skills/lookup
  over LSP, one at a time, each round trip timed.
- baseline: one FTS5 table (name, description, body), porter, built in this
  process from the same files (read, split the frontmatter, insert, commit),
  the build timed; each task's words OR-ed, bm25() weights 10/5/1, timed
  in-process (no round trip: the baseline is favoured).

A task is right when the hit is its skill or a near-duplicate of it: a skill
whose description and body are the same text (whitespace and case aside)
under another name; both systems are judged alike. Printed: recall@1,
recall@5 and MRR (top 10) of both on the split asked (test: tasks never
tuned on), the p50 lookup and the index build of both.

Splits (TSV column 2, the part each task was written in, docs/skills.md):
dev = dev, held, held2, held3 (the tuning set); test = held4, held5, held6.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import Daemon, bench_env  # noqa: E402
from ranking_eval import baseline_query, frontmatter  # noqa: E402

SPLIT = {"dev": "dev", "held": "dev", "held2": "dev", "held3": "dev",
         "held4": "test", "held5": "test", "held6": "test"}


def load_tasks(path):
    rows = [l.rstrip("\n").split("\t") for l in open(path)
            if l.strip() and not l.startswith("#")]
    return [(d, SPLIT[s], t) for d, s, t in rows]


def choose(corpus, want, size):
    """The skills indexed: (dir, (name, desc, body)), one per name, targets first."""
    others = sorted(x for x in os.listdir(corpus) if x not in want)
    out, taken = [], set()
    for x in sorted(want) + others:
        if len(out) >= size:
            break
        src = os.path.join(corpus, x, "SKILL.md")
        if not os.path.isfile(src):
            continue
        fm = frontmatter(src)
        if (fm[0] or x) in taken:
            continue
        taken.add(fm[0] or x)
        out.append((x, fm))
    return out


def twins(skills):
    """dir -> the set of dirs whose description and body are the same text."""
    by = {}
    for x, (_, d, b) in skills:
        key = hashlib.sha1(" ".join((d + "\n" + b).lower().split()).encode()).digest()
        by.setdefault(key, set()).add(x)
    return {x: s for s in by.values() for x in s}


def bare_build(skills, corpus, path):
    """The baseline's table, built from the files: (db, seconds)."""
    for old in (path, path + "-wal", path + "-shm"):  # --workdir: built again for another split
        if os.path.exists(old):
            os.unlink(old)
    t = time.perf_counter()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(name, description, body, tokenize='porter')")
    with db:
        for i, (x, _) in enumerate(skills):
            n, d, b = frontmatter(os.path.join(corpus, x, "SKILL.md"))
            db.execute("INSERT INTO f(rowid, name, description, body) VALUES(?,?,?,?)",
                       (i, n, d, b))
    return db, time.perf_counter() - t


def scores(ranked, targets, eq):
    r1 = r5 = mrr = 0.0
    for got, want in zip(ranked, targets):
        ok = eq.get(want, {want})
        for k, d in enumerate(got[:10]):
            if d in ok:
                mrr += 1.0 / (k + 1)
                r1 += k == 0
                r5 += k < 5
                break
    n = max(len(targets), 1)
    return 100 * r1 / n, 100 * r5 / n, mrr / n


def run_daemon(exe, skills, corpus, tmp, tasks, verbose, dump=None):
    proj = os.path.join(tmp, "proj")
    root = os.path.join(proj, ".claude", "skills")
    for x, _ in skills:
        if not os.path.isdir(os.path.join(root, x)):  # --workdir: already there
            os.makedirs(os.path.join(root, x))
            os.link(os.path.join(corpus, x, "SKILL.md"), os.path.join(root, x, "SKILL.md"))
    # dump: each lookup's pool and features (skills/index/ltr.c), for ltr_fit.py
    env = bench_env(os.path.join(tmp, "home"), os.path.join(tmp, "c"), dump)
    os.makedirs(env["HOME"], exist_ok=True)
    d = Daemon(exe, proj, env, os.path.join(tmp, "log"))
    t0 = time.perf_counter()
    d.start(proj)
    d.wait_indexed()
    build = time.perf_counter() - t0
    d.wait_merged(120)  # lookups are timed once the first index's merge is done
    ranked, lat = [], []
    cpu0 = d.cpu_s()
    for x, _, task in tasks:
        t = time.perf_counter()
        r = d.call("skills/lookup", {"task": task, "limit": 10})
        lat.append((time.perf_counter() - t) * 1e3)
        got = [os.path.basename(os.path.dirname(h["path"])) for h in r.get("results", [])]
        ranked.append(got)
        if verbose and (not got or got[0] != x):
            top = r["results"][0] if r.get("results") else {}
            print(f"# {x}: got {got[:3]} why {top.get('why')}")
    cpu = (d.cpu_s() - cpu0) * 1e3 / max(len(tasks), 1)
    d.stop()
    return ranked, lat, build, cpu


def run_bare(db, skills, tasks):
    ranked, lat = [], []
    for _, _, task in tasks:
        t = time.perf_counter()
        rows = baseline_query(db, task, 10)
        lat.append((time.perf_counter() - t) * 1e3)
        ranked.append([skills[r][0] for r in rows])
    return ranked, lat


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("upskilld")
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--tasks", default=os.path.join(here, "dev_tasks.tsv"))
    ap.add_argument("--size", type=int, default=40000)
    ap.add_argument("--split", choices=("test", "dev", "all"), default="test")
    ap.add_argument("--ranks", help="write each task's rank (1..10, 0: not in the top 10) "
                    "in lookup and in the baseline to this TSV")
    ap.add_argument("--lists", help="write each task's top 10 from upskilld, one JSON list a "
                    "line, to this file (diff two runs' files: a speed change must not change them)")
    ap.add_argument("--dump", help="the daemon appends each lookup's candidates and their "
                    "features to this file (bench/skills/ltr_fit.py refits from it)")
    ap.add_argument("--workdir", help="keep the index, the baseline's table and its answers in "
                    "this directory and reuse them (iterating on the ranking: the build "
                    "figures then time a reopened index, not a fresh one)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    tasks = [t for t in load_tasks(a.tasks) if a.split in ("all", t[1])]
    skills = choose(a.corpus, {x for x, _, _ in load_tasks(a.tasks)}, a.size)
    eq = twins(skills)
    tmp = a.workdir or tempfile.mkdtemp(prefix="upk-rankbench-")
    os.makedirs(tmp, exist_ok=True)
    kept = os.path.join(tmp, f"bare-{a.split}.json")
    try:
        # the baseline first: the daemon's files then compete with a warm page cache alike
        if a.workdir and os.path.exists(kept):
            base, base_lat, bare_s = json.load(open(kept))
        else:
            db, bare_s = bare_build(skills, a.corpus, os.path.join(tmp, "bare.sqlite"))
        ours, our_lat, our_s, our_cpu = run_daemon(os.path.realpath(a.upskilld), skills, a.corpus, tmp,
                                          tasks, a.verbose, a.dump)
        if not (a.workdir and os.path.exists(kept)):
            base, base_lat = run_bare(db, skills, tasks)
            db.close()
            if a.workdir:
                json.dump([base, base_lat, bare_s], open(kept, "w"))
    finally:
        if not a.workdir:
            shutil.rmtree(tmp, ignore_errors=True)
    if a.lists:
        with open(a.lists, "w") as f:
            for got in ours:
                f.write(json.dumps(got) + "\n")
    if a.ranks:
        with open(a.ranks, "w") as f:
            for i, (x, split, task) in enumerate(tasks):
                ok = eq.get(x, {x})
                rank = lambda got: next((k + 1 for k, d in enumerate(got[:10]) if d in ok), 0)  # noqa
                f.write(f"{x}\t{split}\t{rank(ours[i])}\t{rank(base[i])}\t{ours[i][:3]}\t"
                        f"{base[i][:3]}\t{task}\n")
    dup = sum(len(s) > 1 for s in {id(s): s for s in eq.values()}.values())
    print(f"corpus: {a.corpus}; {len(skills)} skills indexed (one per name), "
          f"{dup} groups of same-text skills; split: {a.split}, {len(tasks)} tasks; "
          f"cpus: {len(os.sched_getaffinity(0))}; load: {os.getloadavg()[0]:.1f}")
    print(f"  {'':24} {'upskilld':>10} {'FTS5 bm25':>10} {'diff':>8}")
    rows = []
    for split in ("dev", "test"):  # --split all: each half apart, the test half last
        ix = [i for i, t in enumerate(tasks) if t[1] == split]
        if not ix:
            continue
        targets = [tasks[i][0] for i in ix]
        u = scores([ours[i] for i in ix], targets, eq)
        b = scores([base[i] for i in ix], targets, eq)
        tag = f", {split}" if a.split == "all" else ""
        rows += [(f"recall@1 (%){tag}", u[0], b[0]), (f"recall@5 (%){tag}", u[1], b[1]),
                 (f"MRR{tag}", u[2], b[2])]
    rows += [("lookup p50 (ms)", statistics.median(our_lat), statistics.median(base_lat)),
             (f"index build, {len(skills)} (s)", our_s, bare_s)]
    for name, x, y in rows:
        diff = f"{x / y:7.2f}x" if "ms" in name or "(s)" in name else f"{x - y:+8.1f}"
        if name.startswith("MRR"):
            diff = f"{x - y:+8.3f}"
        print(f"  {name:24} {x:10.3f} {y:10.3f} {diff}")
    print(f"  {'lookup CPU, mean (ms)':24} {our_cpu:10.3f}  (upskilld's user+system time "
          "over the lookups, per task)")
    print("lookup p50: upskilld through the daemon (LSP round trip over a pipe); the baseline\n"
          "in-process. Build: upskilld's first full index (initialize until no `indexing`),\n"
          "the baseline's table from the same files (read, insert, commit).")


if __name__ == "__main__":
    main()
