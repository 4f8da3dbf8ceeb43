#!/usr/bin/env python3
"""Mine the lookup's word associations from a registry of skills, no labels.

    mine_assoc.py --corpus DIR [--exclude dev_tasks.tsv] [-o skills/index/assoc.c]

Users and skill authors say one thing in different words ("a separate
checkout" / "worktree", "personality type" / "MBTI"). Across tens of
thousands of skills, the words an author writes beside a word in a
description are often the words another author writes instead of it. For
each word u of the descriptions (name + description, porter stems as the
index stores them), its associates v are the words found in the same
descriptions far more often than chance:

    P(v | u) >= MIN_COND, lift P(v | u) / P(v) >= MIN_LIFT, co(u, v) >= MIN_CO,

v neither too common (a fifth of the descriptions: weighs little, a long row
list) nor rarer than MIN_DF; the MAX_PER best by P(v | u) * log(lift). Skills
of the same description count once (registries copy a skill many times).
The skills of --exclude (the lookup's labelled tasks, both halves) are left
out, so the table never saw a target's own text.

Written as a C table, sorted by stem for bsearch: {stem, associate as a word
the tokenizer stems back to the associate's stem, strength}.

The lookup that asked these (commit 9633032, branch h5-rank) lost first
places on the dev half in every setting tried and was reverted; the table
is not in the tree. bench/skills/results/ranking.md, "Words mined from the registry", has the
figures; this script stays to reproduce them.
"""
import argparse
import hashlib
import math
import os
import re
import sqlite3
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ranking_eval import frontmatter  # noqa: E402

MIN_DF = 8        # a word in fewer descriptions: its associations are chance
MIN_CO = 4        # descriptions holding both
MIN_COND = 0.08   # P(v | u)
MIN_LIFT = 8.0    # P(v | u) / P(v)
MAX_DF_SHARE = 0.02
MAX_PER = 3
WORD = re.compile(r"[^\W_]+", re.U)


def stems_of(words):
    """word -> porter stem as FTS5 (porter over unicode61, diacritics removed) stores it."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE w USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(w, instance)")
    words = sorted(words)
    with db:
        db.executemany("INSERT INTO w(rowid, x) VALUES(?, ?)", enumerate(words))
    out = {}
    for term, doc in db.execute("SELECT term, doc FROM v"):
        out.setdefault(words[doc], term)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--exclude", default=os.path.join(here, "dev_tasks.tsv"))
    ap.add_argument("-o", "--out", default="-")
    a = ap.parse_args()
    skip = {l.split("\t")[0] for l in open(a.exclude) if l.strip() and not l.startswith("#")}
    texts, seen = [], set()
    for x in sorted(os.listdir(a.corpus)):
        src = os.path.join(a.corpus, x, "SKILL.md")
        if x in skip or not os.path.isfile(src):
            continue
        name, desc, _ = frontmatter(src)
        key = hashlib.sha1(" ".join(desc.lower().split()).encode()).digest()
        if not desc or key in seen:
            continue
        seen.add(key)
        texts.append((name.replace("-", " ") + " " + desc).lower())
    words = [WORD.findall(t) for t in texts]
    stem = stems_of({w for ws in words for w in ws if len(w) >= 3 and not w.isdigit()})
    surface = defaultdict(Counter)
    docs = []
    for ws in words:
        d = set()
        for w in ws:
            s = stem.get(w)
            if s:
                d.add(s)
                surface[s][w] += 1
        docs.append(d)
    n = len(docs)
    df = Counter(s for d in docs for s in d)
    keep = {s for s, c in df.items() if c >= MIN_DF and s.isascii()}
    cap = MAX_DF_SHARE * n
    co = defaultdict(Counter)
    for d in docs:
        d = [s for s in d if s in keep]
        assoc = [s for s in d if df[s] <= cap]
        for u in d:
            for v in assoc:
                if v != u:
                    co[u][v] += 1
    rows = []
    for u in sorted(co):
        best = []
        for v, c in co[u].items():
            cond = c / df[u]
            lift = cond / (df[v] / n)
            if c >= MIN_CO and cond >= MIN_COND and lift >= MIN_LIFT:
                best.append((cond * math.log(lift), v, cond))
        best.sort(reverse=True)
        for score, v, cond in best[:MAX_PER]:
            word = surface[v].most_common(1)[0][0]
            if stem.get(word) == v:
                rows.append((u, word, cond))
    out = sys.stdout if a.out == "-" else open(a.out, "w")
    out.write(HEAD % dict(n=n, rows=len(rows), cond=MIN_COND, lift=MIN_LIFT, co=MIN_CO,
                          df=MIN_DF, share=MAX_DF_SHARE, per=MAX_PER))
    for u, w, c in rows:
        out.write(f'    {{"{u}", "{w}", {c:.2f}f}},\n')
    out.write("};\n\n" + TAIL)
    print(f"{n} descriptions, {len(keep)} stems kept, {len(rows)} associations", file=sys.stderr)


HEAD = """/* Generated by bench/skills/mine_assoc.py: do not edit, run it again.
 *
 * Word associations mined without labels from %(n)d distinct descriptions
 * of a public registry (github.com/tomevault-io/skills-registry, the
 * labelled tasks' skills left out): each stem's associates are the words
 * written beside it in the same descriptions far more often than chance
 * (P(v | u) >= %(cond)g, lift >= %(lift)g, in %(co)d descriptions or more;
 * u in %(df)d or more, v in at most %(share)g of them; the %(per)d best). A lookup
 * asks them at a low weight beside the task's word (query.c). */
#include "skills/index/words_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct assoc {
  const char *stem; /* the task word's stem */
  const char *word; /* an associate, as a word the tokenizer stems back */
  float cond;       /* P(associate | stem) over the descriptions */
} assoc;

/* %(rows)d rows, sorted by stem (strcmp), then by strength. */
static const assoc table[] = {
"""

TAIL = """static int by_stem(const void *key, const void *item) {
  return strcmp(key, ((const assoc *)item)->stem);
}

const char *upk__ix_assoc(const char *stem, size_t *k, double *cond) {
  size_t n = sizeof table / sizeof *table;
  if (!*k) { /* the first row of the stem: bsearch finds one, walk back to the first */
    const assoc *a = bsearch(stem, table, n, sizeof *table, by_stem);
    if (!a)
      return NULL;
    while (a > table && !strcmp(a[-1].stem, stem))
      a--;
    *k = (size_t)(a - table) + 1;
  }
  size_t i = *k - 1;
  if (i >= n || strcmp(table[i].stem, stem))
    return NULL;
  (*k)++;
  *cond = table[i].cond;
  return table[i].word;
}
"""

if __name__ == "__main__":
    main()
