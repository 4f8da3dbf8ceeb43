#!/usr/bin/env python3
"""Lookup's relevance and its "nothing fits" cut, on the labelled tasks, in one run.

    relevance_bench.py UPSKILLD --corpus DIR [--size 40000] [--workdir DIR] [--fit]

One daemon indexes what rank_bench.py indexes (the labelled tasks' skills and the registry's
first others, --size in all) and answers, over LSP, every labelled task of dev_tasks.tsv and
every task of unrelated_tasks.tsv (tasks no skill fits: a restaurant booking, a poem about
snow, ...). Printed for the test half:

- before: recall@1, recall@5 and MRR of the full ranked list (what lookup answered until it
  could say that nothing fits; the ranking is unchanged);
- after: the same for the answer as find_skill gives it (limit 5; when noMatch, the nearest
  3 only), and the share of labelled tasks answered noMatch (wrongly);
- the share of the unrelated tasks answered noMatch.

--fit refits skills/index/relevance.c's coefficients on the dev half (labelled tasks' right
hits against the unrelated dev tasks' hits) from the answers' `why`, mirroring its features,
and prints them; --workdir keeps the answers (raw.json) to refit without a daemon.
"""
import argparse
import json
import math
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import Daemon, bench_env  # noqa: E402
from rank_bench import choose, load_tasks, scores, twins  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..", "skills")


def c_words(path, name):
    """The quoted words of C array `name` in `path`."""
    text = open(path).read()
    body = text[text.index(name):]
    return set(re.findall(r'"([^"]*)"', body[:body.index("};")]))


GENERIC = (c_words(os.path.join(SRC, "index", "words.c"), "stopwords[]")
           | c_words(os.path.join(SRC, "index", "relevance.c"), "generic[]"))
WEIGHT = {"name": 1.0, "description": 0.8, "headings": 0.5, "body": 0.3}


def features(task, why):
    """relevance.c's features of one hit: evidence, evidence per content word (at most 1),
    words matched in the name or description."""
    words = {w for w in re.findall(r"[a-z0-9]+", task.lower()) if len(w) >= 2 and w not in GENERIC}
    ev, head = 0.0, 0
    for part in filter(None, why.split("; ")):
        m = re.match(r"(.*) \(([^)]*)\)$", part)
        if not m or m.group(1) in GENERIC:
            continue
        fields = m.group(2).split(", ")
        ev += max(WEIGHT.get(f, 0) for f in fields)
        head += any(f in ("name", "description") for f in fields)
    return ev, min(ev / max(len(words), 1), 1.0), head


def relevance(coef, f):
    """The fitted part of relevance.c's (short tasks' rule aside)."""
    if f[0] <= 0:
        return 0.0
    z = coef[0] + sum(c * x for c, x in zip(coef[1:], f))
    return 1 / (1 + math.exp(-z))


def fit(pos, neg, steps=20000, lr=0.05):
    """Logistic regression by gradient descent, each class weighted to half."""
    coef = [0.0] * 4
    data = [(f, 1, 0.5 / len(pos)) for f in pos] + [(f, 0, 0.5 / len(neg)) for f in neg]
    for _ in range(steps):
        g = [0.0] * 4
        for f, y, w in data:
            p = 1 / (1 + math.exp(-(coef[0] + sum(c * x for c, x in zip(coef[1:], f)))))
            for k, x in enumerate((1.0,) + tuple(f)):
                g[k] += w * (p - y) * x
        coef = [c - lr * 10 * gk for c, gk in zip(coef, g)]
    return coef


def answer(exe, skills, corpus, tmp, tasks):
    proj = os.path.join(tmp, "proj")
    root = os.path.join(proj, ".claude", "skills")
    for x, _ in skills:
        if not os.path.isdir(os.path.join(root, x)):
            os.makedirs(os.path.join(root, x))
            os.link(os.path.join(corpus, x, "SKILL.md"), os.path.join(root, x, "SKILL.md"))
    env = bench_env(os.path.join(tmp, "home"), os.path.join(tmp, "c"))
    os.makedirs(env["HOME"], exist_ok=True)
    d = Daemon(exe, proj, env, os.path.join(tmp, "log"))
    d.start(proj)
    d.wait_indexed()
    out = [d.call("skills/lookup", {"task": t, "limit": 10}) for t in tasks]
    d.stop()
    return out


def dirname(hit):
    return os.path.basename(os.path.dirname(hit["path"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upskilld")
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--size", type=int, default=40000)
    ap.add_argument("--workdir")
    ap.add_argument("--fit", action="store_true")
    a = ap.parse_args()
    labelled = load_tasks(os.path.join(HERE, "dev_tasks.tsv"))
    unrelated = [l.rstrip("\n").split("\t") for l in open(os.path.join(HERE, "unrelated_tasks.tsv"))
                 if l.strip() and not l.startswith("#")]
    skills = choose(a.corpus, {x for x, _, _ in labelled}, a.size)
    eq = twins(skills)
    tmp = a.workdir or tempfile.mkdtemp(prefix="upk-relbench-")
    os.makedirs(tmp, exist_ok=True)
    raw = os.path.join(tmp, "raw.json")
    try:
        if a.workdir and os.path.exists(raw) and a.fit:
            got = json.load(open(raw))
        else:
            got = answer(os.path.realpath(a.upskilld), skills, a.corpus, tmp,
                         [t for _, _, t in labelled] + [t for _, t in unrelated])
            if a.workdir:
                json.dump(got, open(raw, "w"))
    finally:
        if not a.workdir:
            shutil.rmtree(tmp, ignore_errors=True)
    lab, unr = got[:len(labelled)], got[len(labelled):]
    if a.fit:
        pos = [features(t, h["why"]) for (x, s, t), r in zip(labelled, lab) if s == "dev"
               for h in r["results"] if dirname(h) in eq.get(x, {x})]
        neg = [features(t, h["why"]) for (s, t), r in zip(unrelated, unr) if s == "dev"
               for h in r["results"][:3]]
        coef = fit(pos, neg)
        print("coef =", ", ".join(f"{c:.3f}" for c in coef))
        for cut in (0.3, 0.4, 0.5, 0.6):
            fn = sum(relevance(coef, f) < cut for f in pos) / len(pos)
            tops = [max((relevance(coef, features(t, h["why"])) for h in r["results"]), default=0)
                    for (s, t), r in zip(unrelated, unr) if s == "dev"]
            print(f"  cut {cut}: right hits under it {100 * fn:.1f} %, unrelated dev tasks "
                  f"noMatch {100 * sum(x < cut for x in tops) / len(tops):.0f} %")
        return
    test = [i for i, t in enumerate(labelled) if t[1] == "test"]
    targets = [labelled[i][0] for i in test]
    before = [[dirname(h) for h in lab[i]["results"]] for i in test]
    after = [[dirname(h) for h in lab[i]["results"]][:3 if lab[i].get("noMatch") else 5]
             for i in test]
    b, f = scores(before, targets, eq), scores(after, targets, eq)
    wrong = sum(bool(lab[i].get("noMatch")) for i in test)
    ut = [r for (s, _), r in zip(unrelated, unr) if s == "test"]
    none = sum(bool(r.get("noMatch")) for r in ut)
    print(f"corpus: {a.corpus}; {len(skills)} skills indexed; test half: {len(test)} labelled "
          f"tasks, {len(ut)} unrelated tasks; cut {lab[0].get('relevanceCut')}")
    print(f"  {'':34} {'recall@1':>9} {'recall@5':>9} {'MRR':>7}")
    print(f"  {'before (full ranked list)':34} {b[0]:9.1f} {b[1]:9.1f} {b[2]:7.3f}")
    print(f"  {'after (find_skill answer)':34} {f[0]:9.1f} {f[1]:9.1f} {f[2]:7.3f}")
    print(f"  labelled tasks answered noMatch: {wrong} of {len(test)} "
          f"({100 * wrong / max(len(test), 1):.1f} %)")
    print(f"  unrelated tasks answered noMatch: {none} of {len(ut)} "
          f"({100 * none / max(len(ut), 1):.0f} %)")


if __name__ == "__main__":
    main()
