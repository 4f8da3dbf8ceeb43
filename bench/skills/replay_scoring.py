#!/usr/bin/env python3
"""Replay the development set's tasks on a daemon's own index file, scored
several ways in Python, to compare scoring models before building one in C.

    replay_scoring.py INDEX.sqlite MODE:WEIGHTS [MODE:WEIGHTS ...]

INDEX is the cache file a daemon wrote for ranking_eval.py's project (one
skill per name; keep the project instead of deleting it). Every task word is
asked (no budgets, no camelCase or abbreviation phrases), stopwords as
skills/index/words.c has them. WEIGHTS: name,description,headings,body.
MODE:
  two    - the lookup's model: head bm25 + body bm25, each table its own idf
           and length normalisation (weights: head columns, body's weight);
  joint  - one bm25 over the skill: weighted tf summed over all four fields,
           idf from the documents holding the word anywhere, length of all;
  bm25f  - BM25F: per-field length normalisation, one saturation;
  mixL   - two (3,6,1,1) + L x joint(WEIGHTS).
Prints recall@1 / recall@5 / MRR per part, and for the tuning set (every
part but held3).
"""
import sqlite3, re, math, os, sys, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ranking_eval import scores
HERE = os.path.dirname(os.path.abspath(__file__))
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE VIRTUAL TABLE temp.hv USING fts5vocab(main, fts, instance)")
db.execute("CREATE VIRTUAL TABLE temp.bv USING fts5vocab(main, fts_body, instance)")
db.execute("CREATE VIRTUAL TABLE temp.st USING fts5(w, tokenize='porter unicode61 remove_diacritics 2')")
db.execute("CREATE VIRTUAL TABLE temp.stv USING fts5vocab(temp, st, instance)")
src = open(os.path.join(HERE, '..', '..', 'skills', 'index', 'words.c')).read()
block = src[src.index('stopwords[] = {'):src.index('};', src.index('stopwords[] = {'))]
STOP = set(re.findall(r'"([^"]*)"', block))
def varints(b):
    out, v = [], 0
    for c in b:
        v = (v << 7) | (c & 0x7f)
        if not c & 0x80: out.append(v); v = 0
    return out
hsize = {r: varints(b) for r, b in db.execute("SELECT id, sz FROM fts_docsize")}
bsize = {r: sum(varints(b)) for r, b in db.execute("SELECT id, sz FROM fts_body_docsize")}
N = len(hsize)
docdir = {i: os.path.basename(os.path.dirname(p)) for i, p in db.execute("SELECT id, path FROM doc")}
avg_h = sum(sum(v) for v in hsize.values()) / N
avg_b = sum(bsize.values()) / max(1, len(bsize))
avgf = [sum(v[f] for v in hsize.values()) / N for f in range(3)]
cache = {}
def stem(w):
    db.execute("DELETE FROM st"); db.execute("INSERT INTO st(rowid, w) VALUES(1, ?)", (w,))
    r = [t for (t,) in db.execute("SELECT term FROM stv")]
    return r[0] if len(r) == 1 else None
def postings(s):
    if s in cache: return cache[s]
    h = collections.defaultdict(lambda: [0, 0, 0])
    for d, c, n in db.execute("SELECT doc, col, count(*) FROM hv WHERE term=? GROUP BY doc, col", (s,)):
        h[d][["name", "description", "headings"].index(c)] = n
    b = dict(db.execute("SELECT doc, count(*) FROM bv WHERE term=? GROUP BY doc", (s,)))
    cache[s] = (dict(h), b)
    return cache[s]
def terms(task):
    out = []
    for w in re.findall(r"[A-Za-z0-9]+", task):
        w = w.lower()
        if w in STOP or len(w) < 2 or w.isdigit(): continue
        s = stem(w)
        if s and s not in out: out.append(s)
    return out
K1, B = 1.2, 0.75
def idf(df): 
    v = math.log((N - df + 0.5) / (df + 0.5)); return v if v > 0 else 1e-6
def rank(task, mode, W=(10, 5, 1, 1)):
    if mode.startswith("mix"):
        lam = float(mode[3:])
        a = rank_scores(task, "two", (3, 6, 1, 1)); j = rank_scores(task, "joint", W)
        acc = collections.Counter()
        for d in set(a) | set(j): acc[d] = a.get(d, 0) + lam * j.get(d, 0)
        return [docdir[d] for d, _ in acc.most_common(10)]
    return [docdir[d] for d, _ in rank_scores(task, mode, W).most_common(10)]
def rank_scores(task, mode, W):
    acc = collections.Counter()
    for s in terms(task):
        h, b = postings(s)
        if mode == "joint":
            docs = set(h) | set(b); i = idf(len(docs))
            if len(docs) * 2 >= N: continue
            avg = avg_h + avg_b
            for d in docs:
                hv = h.get(d, (0, 0, 0)); tf = W[0]*hv[0] + W[1]*hv[1] + W[2]*hv[2] + W[3]*b.get(d, 0)
                L = sum(hsize.get(d, [0])) + bsize.get(d, 0)
                acc[d] += i * tf * (K1 + 1) / (tf + K1 * (1 - B + B * L / avg))
        elif mode == "bm25f":
            docs = set(h) | set(b); i = idf(len(docs))
            if len(docs) * 2 >= N: continue
            for d in docs:
                hv = h.get(d, (0, 0, 0)); hs = hsize.get(d, [0, 0, 0])
                tf = 0.0
                for f in range(3):
                    if hv[f]: tf += W[f] * hv[f] / (1 - B + B * hs[f] / avgf[f])
                if d in b: tf += W[3] * b[d] / (1 - B + B * bsize.get(d, 0) / avg_b)
                acc[d] += i * tf * (K1 + 1) / (tf + K1)
        else:  # two tables
            ih, ib = idf(len(h)), idf(len(b))
            for d, hv in h.items():
                if len(h) * 2 >= N: break
                tf = W[0]*hv[0] + W[1]*hv[1] + W[2]*hv[2]; L = sum(hsize[d])
                acc[d] += ih * tf * (K1 + 1) / (tf + K1 * (1 - B + B * L / avg_h))
            for d, n in b.items():
                if len(b) * 2 >= N: break
                L = bsize[d]
                acc[d] += W[3] * ib * n * (K1 + 1) / (n + K1 * (1 - B + B * L / avg_b))
    return acc
dev = [l.rstrip("\n").split("\t") for l in open(os.path.join(HERE, "dev_tasks.tsv")) if l.strip() and not l.startswith("#")]
def report(name, ours):
    line = []
    for part in ["dev", "held", "held2", "held3"]:
        idx = [i for i, (_, s, _) in enumerate(dev) if s == part]
        u = scores([ours[i] for i in idx], [dev[i][0] for i in idx], None)
        line.append(f"{part} {int(u[0])}/{int(u[1])}/{u[2]:.3f}")
    tun = [i for i, (_, s, _) in enumerate(dev) if s != "held3"]
    u = scores([ours[i] for i in tun], [dev[i][0] for i in tun], None)
    print(f"{name:28} tune {int(u[0])}/{int(u[1])}/{u[2]:.3f} | " + "  ".join(line), flush=True)
for mode, W in [(m, tuple(map(float, w.split(",")))) for m, w in (a.split(":") for a in sys.argv[2:])]:
    report(f"{mode} {W}", [rank(t, mode, W) for _, _, t in dev])
