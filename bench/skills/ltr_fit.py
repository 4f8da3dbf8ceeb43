#!/usr/bin/env python3
"""Fit the learned order of lookup (skills/index/ltr.c) from a feature dump.

    rank_bench.py build/daemon/upskilld --corpus REG --split dev --dump DUMP
    ltr_fit.py DUMP [--tasks dev_tasks.tsv] [--pairwise] [--ceiling]

DUMP holds, for each lookup, "Q<TAB>task" then one "C<TAB>path<TAB>place<TAB>
features..." line per pooled candidate (UPK_LTR_POOL of them, the tables'
order), as the daemon writes it when UPSKILLD_RANK_DUMP names a file. Only
the dev half of the task set is read (dev, held, held2, held3): the test
half is never fitted on. A task is right when a candidate's directory is the
task's skill.

Coordinate ascent on MRR (top 10) from the tables' own order (head + body +
10 x joint): each weight in turn is tried over a grid around its value, the
best kept, until a pass changes nothing. Printed: a two-fold check (fit on
dev+held, scored on held2+held3, and the other way round; a fit that only
learns its own tasks shows here), the fit on the whole dev half, and the C
table to paste into skills/index/ltr.c.

--ceiling reads the test half instead (a dump of `--split test`) and fits on
the very tasks it scores: an upper bound on what any weighing of these
features can reach there, never a table to ship (none is printed). Each part
(held4, held5, held6) is also scored by a fit on the other two.
"""
import argparse
import math
import os


NAMES = ["head", "body", "joint", "name", "desc", "headings", "in_body", "any",
         "name_cover", "pairs", "body_len", "desc_len", "desc_dense", "cover", "head_only",
         "body_only", "rarest"]
ENUM = ["HEAD", "BODY", "JOINT", "NAME", "DESC", "HEADINGS", "IN_BODY", "ANY",
        "NAME_COVER", "PAIRS", "BODY_LEN", "DESC_LEN", "DESC_DENSE", "COVER", "HEAD_ONLY",
        "BODY_ONLY", "RAREST"]


def read_dump(path, want):
    """task -> [(dir, features)] of the last lookup of each task in want."""
    out, cur = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.rstrip("\n").split("\t")
        if f[0] == "Q":
            cur = f[1] if f[1] in want else None
            if cur is not None:
                out[cur] = []
        elif f[0] == "C" and cur is not None:
            out[cur].append((os.path.basename(os.path.dirname(f[1])), [float(x) for x in f[3:]]))
    return out


def evaluate(qs, w):
    """(mrr, r1, r5) over qs = [(target index or -1, feature rows)]."""
    mrr = r1 = r5 = 0.0
    for t, rows in qs:
        if t < 0:
            continue
        s = [sum(a * b for a, b in zip(w, r)) for r in rows]
        st = s[t]
        rank = 1 + sum(1 for k, x in enumerate(s) if x > st or (x == st and k < t))
        if rank <= 10:
            mrr += 1 / rank
        r1 += rank == 1
        r5 += rank <= 5
    n = max(len(qs), 1)
    return mrr / n, r1, r5


def fit(qs, nf, passes=8):
    w = [0.0] * nf
    w[0], w[1], w[2] = 1.0, 1.0, 10.0
    scale = []
    for k in range(nf):  # a step of a feature's spread over the candidates
        vals = [r[k] for _, rows in qs for r in rows]
        m = sum(vals) / max(len(vals), 1)
        sd = (sum((v - m) ** 2 for v in vals) / max(len(vals), 1)) ** 0.5
        scale.append(1.0 / sd if sd > 0 else 1.0)
    best = evaluate(qs, w)
    key = lambda e: (round(e[0], 6), e[1])  # noqa: E731
    for _ in range(passes):
        changed = False
        for k in range(nf):
            if k == 2:  # the joint weight sets the scale
                continue
            base = w[k]
            for step in (-8, -4, -2, -1, -0.5, -0.25, 0.25, 0.5, 1, 2, 4, 8):
                v = base + step * scale[k]
                w2 = w[:k] + [v] + w[k + 1:]
                e = evaluate(qs, w2)
                if key(e) > key(best):
                    best, w, changed = e, w2, True
        if not changed:
            break
    return w, best


def pairwise(qs, nf, l2=0.01, steps=300, rate=0.5):
    """Pairwise logistic regression: the right skill over each other candidate of its
    pool, features scaled to unit spread, L2, plain gradient descent."""
    rows = [r for _, rs in qs for r in rs]
    mu = [sum(r[k] for r in rows) / len(rows) for k in range(nf)]
    sd = [max(1e-9, (sum((r[k] - mu[k]) ** 2 for r in rows) / len(rows)) ** 0.5)
          for k in range(nf)]
    pairs = [[(rs[t][k] - r[k]) / sd[k] for k in range(nf)]
             for t, rs in qs if t >= 0 for i, r in enumerate(rs) if i != t]
    w = [0.0] * nf
    for _ in range(steps):
        g = [l2 * x for x in w]
        for x in pairs:
            p = 1 / (1 + math.exp(min(50, sum(a * b for a, b in zip(w, x)))))
            for k in range(nf):
                g[k] -= p * x[k] / len(pairs)
        w = [a - rate * b for a, b in zip(w, g)]
    return [w[k] / sd[k] for k in range(nf)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("--tasks", default=os.path.join(here, "dev_tasks.tsv"))
    ap.add_argument("--pairwise", action="store_true",
                    help="fit by pairwise logistic regression instead (slow: a minute)")
    ap.add_argument("--ceiling", action="store_true",
                    help="fit on the test half itself: the features' upper bound there")
    a = ap.parse_args()
    learn = (lambda qs, nf: (pairwise(qs, nf), None)) if a.pairwise else fit
    part = {}
    for line in open(a.tasks):
        if line.strip() and not line.startswith("#"):
            d, p, t = line.rstrip("\n").split("\t")
            part[t] = (d, p)
    parts = ("held4", "held5", "held6") if a.ceiling else ("dev", "held", "held2", "held3")
    dev = {t: v for t, v in part.items() if v[1] in parts}
    pools = read_dump(a.dump, dev)
    nf = len(NAMES)
    qs = {}
    for t, (d, p) in dev.items():
        rows = pools.get(t, [])
        idx = next((k for k, (x, _) in enumerate(rows) if x == d), -1)
        qs.setdefault(p, []).append((idx, [r[:nf] for _, r in rows]))
    every = [q for v in qs.values() for q in v]
    half = "test" if a.ceiling else "dev"
    print(f"{half} tasks: {len(dev)}, dumped: {len(pools)}, right skill in the pool: "
          f"{sum(i >= 0 for i, _ in every)}")
    start = [1.0, 1.0, 10.0] + [0.0] * (nf - 3)
    folds = [(("dev", "held"), ("held2", "held3")), (("held2", "held3"), ("dev", "held"))]
    if a.ceiling:
        folds = [(tuple(x for x in parts if x != p), (p,)) for p in parts]
    for fa, fb in folds:
        tr = [q for p in fa for q in qs.get(p, [])]
        te = [q for p in fb for q in qs.get(p, [])]
        w, _ = learn(tr, nf)
        print(f"fit on {'+'.join(fa)}: {'+'.join(fb)} tables {fmt(evaluate(te, start))} -> "
              f"learned {fmt(evaluate(te, w))}")
    w, _ = learn(every, nf)
    e = evaluate(every, w)
    print(f"whole {half} half ({len(every)}){', fitted on itself' if a.ceiling else ''}: "
          f"tables {fmt(evaluate(every, start))} -> learned {fmt(e)}")
    if a.ceiling:
        return
    print("static const double weights[UPK_LTR_N] = {")
    for k in range(nf):
        if w[k]:
            print(f"    [UPK_LTR_{ENUM[k]}] = {w[k]:.4g},")
    print("};")


def fmt(e):
    return f"MRR {e[0]:.3f} r@1 {int(e[1])} r@5 {int(e[2])}"


if __name__ == "__main__":
    main()
