#!/usr/bin/env python3
"""Ranking of skills/lookup against a plain FTS5 baseline, on real skills.

    ranking_eval.py UPSKILLD --corpus DIR --dev dev_tasks.tsv [--size 10000] [-v]

The index holds the development set's skills plus the first others of CORPUS
(sorted by directory name) up to --size. Each task of the development set is
asked (1) of the daemon (skills/lookup, through LSP) and (2) of the baseline
the issue names: one SQLite FTS5 table (name, description, body), porter
tokenizer, bm25 weights 10/5/1, every word of the task OR-ed. Printed:
recall@1, recall@5 and MRR (over the top 10) for the dev and held-out parts.
A result is right when it is the skill. The index holds one skill per name
(the development set's first): agents load one skill of a name, the others
are shadowed, so a registry's many "commit" skills would otherwise hide the
right one from both rankers alike.
"""
import argparse
import os
import re
import shutil
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import Daemon  # noqa: E402


def frontmatter(path):
    with open(path, errors="replace") as f:
        text = f.read()
    name = desc = ""
    body = text
    m = re.match(r"---\s*\n(.*?)\n---\s*\n?(.*)", text, re.S)
    if m:
        body = m.group(2)
        for line in m.group(1).splitlines():
            if line.startswith("name:"):
                name = line[5:].strip().strip("'\"")
            elif line.startswith("description:"):
                desc = line[12:].strip().strip("'\"")
    return name, desc, body


def baseline(skills, tasks):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(name, description, body, tokenize='porter')")
    for i, (_, (n, d, b)) in enumerate(skills):
        db.execute("INSERT INTO f(rowid, name, description, body) VALUES(?,?,?,?)", (i, n, d, b))
    return [[skills[r][0] for r in baseline_query(db, task, 10)] for task in tasks]


def baseline_query(db, task, limit):
    """The baseline's answer: the rowids of table f's best `limit` rows, every word OR-ed."""
    q = " OR ".join(f'"{w}"' for w in re.findall(r"[A-Za-z0-9]+", task))
    if not q:
        return []
    return [r[0] for r in db.execute("SELECT rowid FROM f WHERE f MATCH ?"
                                     " ORDER BY bm25(f, 10.0, 5.0, 1.0) LIMIT ?", (q, limit))]


def scores(ranked, targets, meta):
    r1 = r5 = mrr = 0.0
    for got, want in zip(ranked, targets):
        for k, d in enumerate(got[:10]):
            if d == want:
                mrr += 1.0 / (k + 1)
                r1 += k == 0
                r5 += k < 5
                break
    n = max(len(targets), 1)
    return r1, r5, mrr / n, len(targets)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upskilld")
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--dev", required=True)
    ap.add_argument("--size", type=int, default=10000)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--ranks", help="write each task's rank (1..10, 0: not in the top 10) "
                    "in lookup and in the baseline to this TSV")
    a = ap.parse_args()
    dev = [l.rstrip("\n").split("\t") for l in open(a.dev) if l.strip() and not l.startswith("#")]
    want = {d for d, _, _ in dev}
    others = sorted(x for x in os.listdir(a.corpus) if x not in want)
    names = sorted(want) + others[: max(0, a.size - len(want))]
    tmp = tempfile.mkdtemp(prefix="upk-rank-")
    try:
        proj = os.path.join(tmp, "proj")
        root = os.path.join(proj, ".claude", "skills")
        meta, skills, taken = {}, [], set()
        for x in names:
            src = os.path.join(a.corpus, x, "SKILL.md")
            if not os.path.isfile(src):
                continue
            fm = frontmatter(src)
            # One skill per name: agents load one skill of a name (the others are
            # shadowed, docs/skills.md), so a registry's many "commit" skills
            # would hide the one a task is about from both rankers alike.
            if (fm[0] or x) in taken:
                continue
            taken.add(fm[0] or x)
            os.makedirs(os.path.join(root, x))
            os.link(src, os.path.join(root, x, "SKILL.md"))
            meta[x] = fm
            skills.append((x, fm))
        env = dict(os.environ, HOME=os.path.join(tmp, "home"), XDG_CACHE_HOME=os.path.join(tmp, "c"))
        os.makedirs(env["HOME"])
        d = Daemon(os.path.realpath(a.upskilld), proj, env, os.path.join(tmp, "log"))
        d.start(proj)
        d.wait_indexed()
        ours = []
        for x, _, task in dev:
            r = d.call("skills/lookup", {"task": task, "limit": 10})
            got = [os.path.basename(os.path.dirname(h["path"])) for h in r.get("results", [])]
            ours.append(got)
            if a.verbose and (not got or got[0] != x):
                top = r.get("results", [{}])[0] if r.get("results") else {}
                print(f"# {x}: got {got[:3]} why {top.get('why')}")
        d.stop()
        base = baseline(skills, [t for _, _, t in dev])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.ranks:
        with open(a.ranks, "w") as f:
            for i, (x, split, task) in enumerate(dev):
                rank = lambda got: got[:10].index(x) + 1 if x in got[:10] else 0  # noqa: E731
                f.write(f"{x}\t{split}\t{rank(ours[i])}\t{rank(base[i])}\t{ours[i][:3]}\t"
                        f"{base[i][:3]}\t{task}\n")
    print(f"\nranking: {len(dev)} hand-written tasks, index of {len(skills)} real skills")
    print(f"  {'part':10} {'n':>3}  {'upskilld r@1':>12} {'r@5':>5} {'MRR':>6}   "
          f"{'FTS5 baseline r@1':>17} {'r@5':>5} {'MRR':>6}")
    parts = [p for p in dict.fromkeys(s for _, s, _ in dev)] + ["held (all)", "all"]
    for part in parts:
        idx = [i for i, (_, s, _) in enumerate(dev)
               if part == "all" or s == part or (part == "held (all)" and s.startswith("held"))]
        tg = [dev[i][0] for i in idx]
        u = scores([ours[i] for i in idx], tg, meta)
        b = scores([base[i] for i in idx], tg, meta)
        print(f"  {part:10} {u[3]:3d}  {int(u[0]):12d} {int(u[1]):5d} {u[2]:6.3f}   "
              f"{int(b[0]):17d} {int(b[1]):5d} {b[2]:6.3f}")


if __name__ == "__main__":
    main()
