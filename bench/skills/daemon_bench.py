#!/usr/bin/env python3
"""Skill lookup at registry scale, through the real daemon (LSP over pipes).

    daemon_bench.py UPSKILLD [--corpus DIR] [--sizes 10000,60000] [--dev FILE]

CORPUS is a directory of skill directories (<name>/SKILL.md), e.g. a checkout
of a public skills registry; for each size the first N of them (sorted) are
hard-linked into a throw-away project's .claude/skills. Without --corpus,
skills are generated (gen_corpus() below: names and descriptions drawn from
topic word lists, bodies of a few headings and steps) and the table says so.

For each size, one table row per figure with the issue's target beside it:
first full index of a fresh daemon (no cache), a restart on the unchanged
tree (cache reused; the session before it edited a skill, so every skill is
checked), a second restart (the tree as the first restart indexed it: the
walk alone), lookup round trip p50/p99 (requests sent one at a time
over the pipe; each sampled skill's own description as the task, and with
--dev also the hand-written tasks, which are shorter), one changed SKILL.md
re-indexed (the refresh itself, from the daemon's log, and the time until a
lookup finds the new word, which includes the 40 ms debounce), daemon RSS once
indexed, and how often a skill's own description puts it in the top 5 (a
sample of 400 of the skills lookup can return: usable, not shadowed; a skill
whose description is word for word another's counts as found when either is
returned). With --dev, the ranking evaluation (ranking_eval.py) runs on the
same corpus in the same invocation.

Beside each speed figure, a reference taken in the same invocation on the
same files (these machines are shared and their speed moves: compare the
ratio across runs, not only the figure): the plain FTS5 table the issue
names as the baseline (name, description, body; porter; one row per skill),
built and asked in this process through Python's sqlite3 (first index: read
each SKILL.md, split its frontmatter, insert, commit; lookups: the
baseline's OR query, top 5, no round trip), and for the restart a walk that
stats each SKILL.md (the least any check of an unchanged tree does).
"""
import argparse
import json
import os
import random
import re
import select
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

TARGETS = {
    10000: {"index": 3.0, "restart": 0.5, "p50": 1.0, "p99": 5.0, "refresh": 10.0, "rss": 256},
    60000: {"index": 15.0, "restart": 0.5, "p50": 2.0, "p99": 10.0, "refresh": 10.0, "rss": 256},
}


def bench_env(home, cache, dump=None):
    """The environment of a benched daemon: its own HOME and cache, none of the user's
    index, agent or dump settings (a dump file only when asked)."""
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=cache)
    for k in ("UPSKILLD_INDEX", "UPSKILLD_MAX_DIRS", "CLAUDE_CONFIG_DIR", "CODEX_HOME",
              "UPSKILLD_RANK_DUMP"):
        env.pop(k, None)
    if dump:
        env["UPSKILLD_RANK_DUMP"] = os.path.abspath(dump)
    return env


class Daemon:
    def __init__(self, exe, proj, env, log):
        self.p = subprocess.Popen([exe, "--lsp", "-vv", "--log-file=" + log], cwd=proj, env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.buf, self.id = b"", 0

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def _next(self, timeout):
        end = time.time() + timeout
        while True:
            if b"\r\n\r\n" in self.buf:
                head, rest = self.buf.split(b"\r\n\r\n", 1)
                n = int(head.split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            left = end - time.time()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                raise TimeoutError("no answer from the daemon")
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                raise EOFError("the daemon exited")
            self.buf += chunk

    def call(self, method, params, timeout=600):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            m = self._next(timeout)
            if m.get("id") == self.id and "method" not in m:
                return m.get("result", m.get("error"))

    def start(self, proj, opts=None):
        self.call("initialize", {"processId": None, "rootUri": "file://" + proj,
                                 "capabilities": {}, "initializationOptions": opts or {}})
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def wait_indexed(self):
        # A lookup of a word no skill has is the cheapest question that says
        # whether the scan is done; asked every 10 ms it costs the scan little.
        while "indexing" in self.call("skills/lookup", {"task": "qqxzvwk", "limit": 1}):
            time.sleep(0.01)

    def wait_merged(self, limit_s):
        """Wait (at most limit_s) for the first index's merge steps, which run between lookups
        (docs/skills.md): lookups are timed once it is done, as a session meets them."""
        t0 = time.perf_counter()
        def busy():  # the merge, then the posting store's fill
            sk = self.call("upskilld/status", {}).get("skills", {})
            return sk.get("merging") or sk.get("filling")
        while busy() and \
                time.perf_counter() - t0 < limit_s:
            time.sleep(0.05)

    def cpu_s(self):
        with open(f"/proc/{self.p.pid}/stat") as f:
            v = f.read().rsplit(")", 1)[1].split()
        return (int(v[11]) + int(v[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0

    def stop(self):
        try:
            self.call("shutdown", {}, 30)
            self.send({"jsonrpc": "2.0", "method": "exit"})
            self.p.wait(30)
        except Exception:
            self.p.kill()
            self.p.wait()


WORDS = ("pdf spreadsheet kubernetes docker terraform react vue svelte postgres mysql redis kafka "
         "graphql rest api oauth jwt webhook stripe invoice email slack jira github gitlab ci "
         "pipeline lint format test unit e2e playwright cypress benchmark profile memory leak cuda "
         "kernel gpu pandas numpy plot chart dashboard markdown latex slide deck translate i18n "
         "accessibility seo sitemap crawler scrape csv json yaml xml regex cron backup migrate "
         "schema index query cache queue retry logging metrics tracing alert incident postmortem "
         "release changelog semver commit review refactor rename typescript python rust golang "
         "swift kotlin android ios flutter unity shader audio video image resize ocr").split()


def gen_corpus(dest, n):
    """Synthetic skills: documented fallback when no real corpus is given."""
    rnd = random.Random(13)
    for i in range(n):
        ws = rnd.sample(WORDS, 4)
        name = f"{ws[0]}-{ws[1]}-{i:05d}"
        d = os.path.join(dest, name)
        os.makedirs(d)
        with open(os.path.join(d, "SKILL.md"), "w") as f:
            f.write(f"---\nname: {name}\ndescription: Use when working with {ws[0]} and {ws[1]}: "
                    f"{ws[2]} and {ws[3]} tasks.\n---\n# {ws[0].title()} {ws[1]}\n\n## Steps\n\n"
                    + "".join(f"{k + 1}. {' '.join(rnd.sample(WORDS, 8))}.\n" for k in range(12)))


def place(corpus, dest, n):
    names = sorted(x for x in os.listdir(corpus)
                   if os.path.isfile(os.path.join(corpus, x, "SKILL.md")))[:n]
    os.makedirs(dest)
    for x in names:
        os.makedirs(os.path.join(dest, x))
        os.link(os.path.join(corpus, x, "SKILL.md"), os.path.join(dest, x, "SKILL.md"))
    return len(names)


def description(path):
    with open(path, errors="replace") as f:
        text = f.read(20000)
    m = re.search(r"^description:\s*(.+?)\s*$", text, re.M)
    return m.group(1).strip("'\"|> ") if m else ""


def reference_index(root, path):
    """The baseline's FTS5 table of root's skills, built in this process: (db, seconds)."""
    from ranking_eval import frontmatter
    t = time.perf_counter()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(name, description, body, tokenize='porter')")
    with db:
        for e in os.scandir(root):
            db.execute("INSERT INTO f VALUES(?,?,?)", frontmatter(os.path.join(e.path, "SKILL.md")))
    return db, time.perf_counter() - t


def reference_walk(root):
    """Seconds to list root and stat each SKILL.md."""
    t = time.perf_counter()
    for e in os.scandir(root):
        os.stat(os.path.join(e.path, "SKILL.md"))
    return time.perf_counter() - t


def reference_lookups(db, tasks):
    """Milliseconds per baseline query, each task in turn."""
    from ranking_eval import baseline_query
    out = []
    for task in tasks:
        t = time.perf_counter()
        baseline_query(db, task, 5)
        out.append((time.perf_counter() - t) * 1e3)
    return out


def list_all(d):
    out, off = [], 0
    while off is not None:
        r = d.call("skills/list", {"offset": off, "limit": 5000})
        out += r["skills"]
        off = r.get("nextOffset")
    return out


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def run_size(exe, corpus, n, tmp, rows, tasks=()):
    proj = os.path.join(tmp, f"proj-{n}")
    root = os.path.join(proj, ".claude", "skills")
    if corpus:
        n = place(corpus, root, n)
    else:
        gen_corpus(root, n)
    env = bench_env(os.path.join(tmp, f"home-{n}"), os.path.join(tmp, f"cache-{n}"))
    os.makedirs(env["HOME"], exist_ok=True)
    ref_db, ref_first = reference_index(root, os.path.join(tmp, f"reference-{n}.sqlite"))
    log = os.path.join(tmp, f"daemon-{n}.log")
    d = Daemon(exe, proj, env, log)
    t0 = time.perf_counter()
    d.start(proj)
    d.wait_indexed()
    first = time.perf_counter() - t0
    cpu = d.cpu_s()
    # The index is merged into one segment per table after the first index (docs/skills.md),
    # in steps between lookups: lookups are timed once it is done, as a session meets them.
    t1 = time.perf_counter()
    d.wait_merged(60)
    merged = time.perf_counter() - t1
    placements = d.call("skills/list", {"limit": 1})["total"]
    # lookups: each skill's own description (a sample), timed one by one. The
    # sample is drawn from the skills lookup can return: usable and not
    # shadowed (a registry holds many skills of one name; an agent loads one of
    # them, docs/skills.md, and lookup answers with that one).
    rnd = random.Random(5)
    visible = {}
    for e in list_all(d):
        if e["usable"] and not e["shadowed"] and len(e["description"]) >= 8:
            visible.setdefault(os.path.realpath(e["path"]), e)
    sample = rnd.sample(sorted(visible), min(400, len(visible)))
    lat, top5, asked, usable, descs = [], 0, 0, None, []
    for want in sample:
        desc = visible[want]["description"]
        descs.append(desc[:2000])
        asked += 1
        t = time.perf_counter()
        r = d.call("skills/lookup", {"task": desc[:2000], "limit": 5})
        lat.append((time.perf_counter() - t) * 1e3)
        paths = [os.path.realpath(h["path"]) for h in r.get("results", [])]
        # a skill whose description is word for word another's ("Use when this
        # capability is needed.") cannot be told apart by it: either is right
        if want in paths or any(h["description"] == desc for h in r["results"]):
            top5 += 1
        if want in paths and want.startswith(root):
            usable = usable or os.path.basename(os.path.dirname(want))
    # the same through the tasks people write (shorter than descriptions)
    task_lat = []
    for t in list(tasks) * 3:
        t0 = time.perf_counter()
        d.call("skills/lookup", {"task": t, "limit": 5})
        task_lat.append((time.perf_counter() - t0) * 1e3)
    rss = d.rss_mib()
    # one changed skill: a new word, until a lookup finds it
    victim = os.path.join(root, usable, "SKILL.md")  # one lookup can return
    word = "zqxjvbenchword"
    shutil.copy(victim, victim + ".new")  # a copy: the file is a hard link into the corpus
    with open(victim) as f:  # the word goes first in the body, where an edit is searched
        text = f.read()
    m = re.match(r"(---\n.*?\n---\n)(.*)", text, re.S)
    with open(victim + ".new", "w") as f:
        f.write(f"{m.group(1)}\n{word}\n{m.group(2)}" if m else f"{word}\n{text}")
    time.sleep(0.5)  # the copy's own events are not this figure
    os.rename(victim + ".new", victim)
    t = time.perf_counter()
    while not d.call("skills/lookup", {"task": word, "limit": 1}).get("results"):
        if time.perf_counter() - t > 30:
            break
        time.sleep(0.002)
    seen = (time.perf_counter() - t) * 1e3
    rss = max(rss, d.rss_mib())
    d.stop()
    refresh = [float(m) for m in re.findall(r"refreshed \d+ path\(s\).*? in ([0-9.]+) ms",
                                            open(log).read())]
    d = Daemon(exe, proj, env, log)
    t0 = time.perf_counter()
    d.start(proj)
    d.wait_indexed()
    restart = time.perf_counter() - t0
    restart_cpu = d.cpu_s()
    d.stop()
    # The restart above checked every skill (the session before it refreshed one: a full
    # scan's digest is dropped by any other write); this one finds the tree as it indexed it.
    d = Daemon(exe, proj, env, log)
    t0 = time.perf_counter()
    d.start(proj)
    d.wait_indexed()
    again = time.perf_counter() - t0
    d.stop()
    ref_walk = reference_walk(root)
    ref_lat = reference_lookups(ref_db, descs)
    ref_task_lat = reference_lookups(ref_db, list(tasks) * 3)
    ref_db.close()
    tg = TARGETS.get(n, TARGETS[60000 if n > 10000 else 10000])
    rows.append((n, placements, [
        ("first full index (s)", first, tg["index"], ref_first,
         f"daemon cpu {cpu:.1f} s; then the merge, {merged:.1f} s, before the lookups below"),
        ("restart, tree unchanged (s)", restart, tg["restart"], ref_walk,
         f"cpu {restart_cpu:.1f} s; after a session that edited a skill: each one checked"),
        ("restart again (s)", again, tg["restart"], ref_walk, "the tree as last indexed: the walk"),
        ("lookup p50, own descriptions (ms)", statistics.median(lat), tg["p50"],
         statistics.median(ref_lat), f"{len(lat)} lookups"),
        ("lookup p99, own descriptions (ms)", pct(lat, 0.99), tg["p99"], pct(ref_lat, 0.99), ""),
    ] + ([
        ("lookup p50, hand-written tasks (ms)", statistics.median(task_lat), tg["p50"],
         statistics.median(ref_task_lat), f"{len(task_lat)} lookups (--dev tasks x 3)"),
        ("lookup p99, hand-written tasks (ms)", pct(task_lat, 0.99), tg["p99"],
         pct(ref_task_lat, 0.99), ""),
    ] if task_lat else []) + [
        ("one changed skill re-indexed (ms)", refresh[-1] if refresh else float("nan"),
         tg["refresh"], None, f"found by lookup after {seen:.0f} ms (40 ms debounce)"),
        ("daemon RSS indexed (MiB)", rss, tg["rss"], None, ""),
        ("own description in top 5 (%)", 100.0 * top5 / max(asked, 1), 95.0, None,
         f"{top5}/{asked}"),
    ]))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upskilld")
    ap.add_argument("--corpus")
    ap.add_argument("--sizes", default="10000,60000")
    ap.add_argument("--dev")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="upk-bench-")
    rows = []
    try:
        tasks = [l.rstrip("\n").split("\t")[2] for l in open(a.dev)
                 if l.strip() and not l.startswith("#")] if a.dev else []
        for n in [int(x) for x in a.sizes.split(",")]:
            run_size(os.path.realpath(a.upskilld), a.corpus, n, tmp, rows, tasks)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"corpus: {a.corpus or 'synthetic (gen_corpus in this script)'}; "
          f"cpus: {len(os.sched_getaffinity(0))}; load: {os.getloadavg()[0]:.1f}")
    for n, placements, figs in rows:
        print(f"\n{n} skills ({placements} placements: several agents read .claude/skills)")
        print(f"  {'figure':40} {'measured':>10} {'target':>8}  ok  {'reference':>9} {'x ref':>6}"
              "  note")
        for name, v, t, ref, note in figs:
            ok = v >= t if name.startswith("own") else v <= t
            r = f"{ref:9.2f} {v / ref:6.2f}" if ref else f"{'':9} {'':6}"
            print(f"  {name:40} {v:10.2f} {t:8.2f}  {'yes' if ok else 'NO '} {r}  {note}")
    print("\nreference: the plain FTS5 table (the issue's baseline) built and asked in this"
          " process;\nfor the restart, a walk that stats each SKILL.md (module docstring).")
    if a.dev:
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run([sys.executable, os.path.join(here, "ranking_eval.py"), a.upskilld,
                        "--corpus", a.corpus or "", "--dev", a.dev], check=False)


if __name__ == "__main__":
    main()
