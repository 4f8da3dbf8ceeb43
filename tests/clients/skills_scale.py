#!/usr/bin/env python3
"""Skill lookup at scale through the real daemon (LSP over pipes) and upskillctl:
every one of 2,600 skills (names a..z) is indexed, a lookup during the first scan
says it is partial or, as an MCP tool or the editor's findSkill command, waits for
it with progress, skills/list pages, and a root cut at the directory limit is
reported in list, lookup, upskilld/status and a window/logMessage warning. TAP."""
import json
import os
import select
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

DAEMON = os.environ["UPSKILLD"]
CTL = os.environ["UPSKILLCTL"]
PER_LETTER = 100
LETTERS = "abcdefghijklmnopqrstuvwxyz"
N = PER_LETTER * len(LETTERS)

tests = []


def check(name, cond, detail=""):
    tests.append((name, bool(cond), detail))


def inotify_watches(pid):
    """How many inotify watches the process holds, as the kernel lists them."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") != "anon_inode:inotify":
                continue
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                n += sum(1 for line in f if line.startswith("inotify wd:"))
        except OSError:
            pass
    return n


def make_tree(proj):
    root = os.path.join(proj, ".claude", "skills")
    for li, letter in enumerate(LETTERS):
        for k in range(PER_LETTER):
            name = f"{letter}{letter}-tool-{k:03d}"
            d = os.path.join(root, name)
            os.makedirs(d)
            # one distinctive word per skill, so a lookup has exactly one answer
            word = f"quux{letter}{k:03d}"
            with open(os.path.join(d, "SKILL.md"), "w") as f:
                f.write(f"---\nname: {name}\ndescription: Handles {word} jobs for letter "
                        f"{letter}.\n---\n# {name}\n\nSteps for {word}.\n")
    return root


NESTED = 600


def make_collection(top):
    """A collection of NESTED skills two levels down (top/group-g/nested-k), where the watch of
    each skill directory comes from the index's placements, not from a root's children."""
    for k in range(NESTED):
        name = f"nested-{k:03d}"
        d = os.path.join(top, f"group-{k % 3}", name)
        os.makedirs(d)
        with open(os.path.join(d, "SKILL.md"), "w") as f:
            f.write(f"---\nname: {name}\ndescription: Handles nestword{k:03d} jobs.\n---\nSteps.\n")


class Lsp:
    """The daemon over pipes: LSP framing, or MCP's one message a line with mcp=True."""

    def __init__(self, cwd, env, mcp=False, args=()):
        self.err = tempfile.TemporaryFile()
        self.mcp = mcp
        self.p = subprocess.Popen([DAEMON, "--mcp" if mcp else "--lsp", *args], cwd=cwd, env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err)
        self.buf = b""
        self.notes = []
        self.answers = {}
        self.id = 0

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(body + b"\n" if self.mcp else
                           b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def request(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        return self.id

    def next(self, timeout=60):
        end = time.time() + timeout
        while True:
            if self.mcp and b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                return json.loads(line)
            if not self.mcp and b"\r\n\r\n" in self.buf:
                head, rest = self.buf.split(b"\r\n\r\n", 1)
                n = int(head.split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            left = end - time.time()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def wait(self, rid, timeout=60):
        """The answer to request `rid`; answers to others are kept for their own wait."""
        while rid not in self.answers:
            m = self.next(timeout)
            if m is None:
                return None
            if "method" not in m:
                self.answers[m.get("id")] = m
            elif "id" not in m:
                self.notes.append(m)
        return self.answers.pop(rid)

    def call(self, method, params):
        return self.wait(self.request(method, params))

    def close(self, what):
        if self.mcp:
            self.p.stdin.close()  # MCP stdio: the client closes the daemon's input
        else:
            self.call("shutdown", {})
            self.send({"jsonrpc": "2.0", "method": "exit"})
        try:
            code = self.p.wait(30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            code = "killed"
        self.err.seek(0)
        err = self.err.read().decode(errors="replace")
        check(f"{what}: the daemon exits cleanly, no sanitizer report",
              code == 0 and "Sanitizer" not in err and "runtime error" not in err, f"{code}\n{err[-1500:]}")
        return err


def found_within(d, word, secs=10):
    """Ask lookup for `word` until a skill has it or `secs` pass: the names found, the answer."""
    deadline = time.time() + secs
    while True:
        r = d.call("skills/lookup", {"task": word, "limit": 1})
        got = [x["name"] for x in (r or {}).get("result", {}).get("results", [])]
        if got or time.time() > deadline:
            return got, r
        time.sleep(0.05)


def progress_of(notes, method, token):
    return [n["params"] for n in notes if n["method"] == method and n["params"].get(
        "progressToken" if method == "notifications/progress" else "token") == token]


def waiting_lookups(proj, env):
    """Cold daemons whose first scan runs in 9 batches of 300: a lookup sent at once finds its
    skill anyway when it waits (the MCP tool's default, the editor's findSkill command)."""
    env = dict(env, UPSKILLD_SCAN_BATCH="300")
    shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    m = Lsp(proj, env, mcp=True)
    m.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "skills-scale", "version": "1"}})
    m.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    task = {"task": "run the quuxz099 jobs", "limit": 3}
    waiting = m.request("tools/call", {"name": "find_skill", "arguments": task,
                                       "_meta": {"progressToken": "wait-1"}})
    at_once = m.request("tools/call", {"name": "find_skill", "arguments": dict(task, waitMs=0)})
    bad = m.request("tools/call", {"name": "find_skill", "arguments": dict(task, waitMs=-5)})
    short = m.request("tools/call", {"name": "find_skill", "arguments": dict(task, waitMs=50)})
    r = m.wait(at_once)
    sc = (r or {}).get("result", {}).get("structuredContent", {})
    check("find_skill with waitMs 0 answers during the first scan, saying it is partial",
          sc.get("indexing", {}).get("done", N) < N <= sc.get("indexing", {}).get("total", 0), r)
    r = m.wait(bad)
    res = (r or {}).get("result", {})
    check("find_skill with a negative waitMs is a tool error saying the range",
          res.get("isError") is True and res.get("content", [{}])[0].get("text")
          == "params.waitMs: must be between 0 and 120000, got -5", r)
    r = m.wait(short)
    sc = (r or {}).get("result", {}).get("structuredContent", {})
    check("find_skill waits no longer than waitMs: after 50 ms the answer says it is partial",
          "indexing" in sc, r)
    r = m.wait(waiting)
    sc = (r or {}).get("result", {}).get("structuredContent", {})
    check("find_skill on a cold index waits for it: the skill is first, the answer whole",
          [x["name"] for x in sc.get("results", [])][:1] == ["zz-tool-099"] and "indexing" not in sc, r)
    prog = progress_of(m.notes, "notifications/progress", "wait-1")
    check("the waiting find_skill reported the scan's progress, rising, out of every directory",
          prog and all(p["total"] >= N for p in prog)
          and all(a["progress"] < b["progress"] for a, b in zip(prog, prog[1:])), prog)
    m.close("MCP session waiting for the index")

    shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    d = Lsp(proj, env)
    d.call("initialize", {"processId": None, "rootUri": "file://" + proj,
                          "capabilities": {"window": {"workDoneProgress": True}}})
    d.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    for bad, msg in ((200000, "params.waitMs: must be between 0 and 120000, got 200000"),
                     ("soon", "params.waitMs: expected integer, got string")):
        r = d.call("skills/lookup", dict(task, waitMs=bad))
        check(f"skills/lookup with waitMs {bad!r} is -32602 saying so",
              (r or {}).get("error", {}).get("code") == -32602
              and r["error"].get("message") == msg, r)
    r = d.call("workspace/executeCommand", {"command": "upskilld.findSkill", "arguments": [task],
                                            "workDoneToken": "find-1"})
    res = (r or {}).get("result", {})
    check("the editor's findSkill command waits for a cold index and finds the skill",
          [x["name"] for x in res.get("results", [])][:1] == ["zz-tool-099"] and "indexing" not in res, r)
    prog = progress_of(d.notes, "$/progress", "find-1")
    check("findSkill reports $/progress under the command's workDoneToken while it waits",
          prog and prog[0]["value"]["kind"] == "begin", prog)
    d.close("editor session waiting for the index")


def index_file(env):
    d = os.path.join(env["XDG_CACHE_HOME"], "upskilld")
    return next(os.path.join(d, f) for f in os.listdir(d) if f.startswith("index-") and f.endswith(".sqlite"))


def db_value(path, sql):
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchone()[0]
    finally:
        db.close()


def merge_resumed(proj, env):
    """A session stopped as soon as its first index was done, before the merge after it: the
    next session does that merge (its lookups seek every word in every segment until then)."""
    shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    d = Lsp(proj, dict(env, UPSKILLD_SCAN_BATCH="100", UPSKILLD_TIDY_PAGES="1"))
    d.call("initialize", {"processId": None, "rootUri": "file://" + proj, "capabilities": {}})
    d.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    d.call("skills/lookup", {"task": "quuxz099", "limit": 1, "waitMs": 60000})
    d.close("session stopped right after its first index")
    path = index_file(env)
    segs = db_value(path, "SELECT count(DISTINCT segid) FROM fts_idx")
    check("that session left its first index unmerged (segments, no word statistics)",
          segs > 1 and db_value(path, "SELECT count(*) FROM df") == 0, segs)
    d = Lsp(proj, env, args=("-v",))
    d.call("initialize", {"processId": None, "rootUri": "file://" + proj, "capabilities": {}})
    d.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    d.call("skills/lookup", {"task": "quuxz099", "limit": 1, "waitMs": 60000})
    deadline = time.time() + 60
    while time.time() < deadline:
        sk = (d.call("upskilld/status", {}) or {}).get("result", {}).get("skills", {})
        if sk.get("merging") is False:
            break
        time.sleep(0.05)
    err = d.close("the next session")
    check("the next session merges it to one segment a table and takes the word statistics",
          "index merged" in err and db_value(path, "SELECT count(DISTINCT segid) FROM fts_idx") == 1
          and db_value(path, "SELECT count(*) FROM df") > 0, err[-1500:])


def main():
    tmp = tempfile.mkdtemp()
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{len(tests)}")
    failed = 0
    for i, (name, ok, detail) in enumerate(tests, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            failed += 1
            for line in str(detail)[:1500].splitlines():
                print(f"# {line}")
    return 1 if failed else 0


def run(tmp):
    proj = os.path.join(tmp, "proj")
    root = make_tree(proj)
    env = dict(os.environ, HOME=os.path.join(tmp, "home"), XDG_CACHE_HOME=os.path.join(tmp, "cache"),
               XDG_CONFIG_HOME=os.path.join(tmp, "config"))
    for k in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "UPSKILLD_INDEX", "UPSKILLD_MAX_DIRS"):
        env.pop(k, None)
    os.makedirs(env["HOME"])

    # A fresh daemon: the lookup is sent with initialize, before the first scan is done. Its
    # watch set is listed a page of 1,000 placements at a time (10,400 for the project: four
    # agents read its skills; the nested collection's come last), lookups answered between pages.
    collection = os.path.join(tmp, "collection")
    make_collection(collection)
    d = Lsp(proj, dict(env, UPSKILLD_WATCH_PAGE="1000"))
    d.request("initialize", {"processId": None, "rootUri": "file://" + proj, "capabilities": {},
                             "initializationOptions": {"skills": {"extraDirs": [collection]}}})
    d.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    rid = d.request("skills/lookup", {"task": "run the quuxz099 jobs", "limit": 3})
    first = d.wait(rid)
    res = (first or {}).get("result", {})
    found = [r["name"] for r in res.get("results", [])]
    partial = res.get("indexing")
    check("the first lookup of a fresh daemon finds the skill or says the index is partial",
          found[:1] == ["zz-tool-099"] or (partial and partial["done"] < partial["total"]), first)
    check("a partial answer counts the skill directories to index",
          not partial or partial["total"] >= N, partial)
    r = d.call("skills/list", {"agent": "claude", "scope": "project", "limit": 1, "waitMs": 120000})
    res = (r or {}).get("result", {})
    check("skills/list with waitMs waits for the first index: whole, no indexing",
          "indexing" not in res and res.get("total") == N, r if "error" in (r or {}) else
          {k: v for k, v in res.items() if k != "skills"})
    deadline = time.time() + 120
    while True:  # ask again, as upskillctl does, until the answer is whole
        r = d.call("skills/lookup", {"task": "run the quuxz099 jobs", "limit": 3})
        res = (r or {}).get("result", {})
        if "indexing" not in res or time.time() > deadline:
            break
        time.sleep(0.1)
    check("once indexed, a skill whose name starts with z is found first",
          [x["name"] for x in res.get("results", [])][:1] == ["zz-tool-099"] and "indexing" not in res,
          r)
    r = d.call("skills/list", {"agent": "claude", "scope": "project"})
    res = (r or {}).get("result", {})
    check("skills/list counts all 2,600 placements and pages by 1,000 by default",
          res.get("total") == N and len(res.get("skills", [])) == 1000 and res.get("nextOffset") == 1000,
          {k: v for k, v in res.items() if k != "skills"})
    r = d.call("skills/list", {"agent": "claude", "scope": "project", "offset": N - 10, "limit": 50})
    res = (r or {}).get("result", {})
    names = [s["name"] for s in res.get("skills", [])]
    check("skills/list offset/limit return the last page, nextOffset null",
          names == [f"zz-tool-{k:03d}" for k in range(90, 100)] and res.get("nextOffset") is None
          and res.get("total") == N, {k: v for k, v in res.items() if k != "skills"} | {"names": names})
    r = d.call("skills/list", {"offset": -1})
    check("a negative offset is a clear error", r and r.get("error", {}).get("code") == -32602, r)
    r = d.call("skills/list", {"limit": 0})
    check("a zero limit is a clear error", r and r.get("error", {}).get("code") == -32602, r)
    r = d.call("upskilld/status", {})
    sk = (r or {}).get("result", {}).get("skills", {})
    check("upskilld/status reports the index: no truncated root, not scanning",
          sk.get("truncatedRoots") == [] and sk.get("scanning") is False and sk.get("indexed", 0) >= N,
          sk)
    deadline = time.time() + 30
    while sk.get("merging") is True and time.time() < deadline:
        time.sleep(0.05)
        sk = (d.call("upskilld/status", {}) or {}).get("result", {}).get("skills", {})
    check("the first index's segments are merged afterwards (status merging ends false)",
          sk.get("merging") is False, sk)
    # Every directory is watched, the last ones too: the watch set (2,600 skill directories and
    # the roots) is applied a slice per loop turn. The kernel's count of the daemon's inotify
    # watches says so (a refresh applies the rest of an unfinished set: an edit alone could hide
    # a lost slice), and an edit is seen.
    deadline = time.time() + 10
    while inotify_watches(d.p.pid) < N + NESTED and time.time() < deadline:
        time.sleep(0.05)
    check("every skill directory is watched, the nested collection's too (inotify watches >= 3,200)",
          inotify_watches(d.p.pid) >= N + NESTED, inotify_watches(d.p.pid))
    md = os.path.join(collection, "group-2", "nested-599", "SKILL.md")
    with open(md, "a") as f:
        f.write("Now also blorfle.\n")
    got, r = found_within(d, "blorfle")
    check("an edit in the last nested skill is seen by lookup within 10 s", got == ["nested-599"], r)
    md = os.path.join(root, "qq-tool-050", "SKILL.md")
    with open(md) as f:
        text = f.read()
    with open(md, "w") as f:
        f.write(text.replace("description: Handles", "description: zorble Handles", 1))
    got, r = found_within(d, "zorble")
    check("an edit in a skill is seen by lookup within 10 s", got == ["qq-tool-050"], r)

    d.close("session with 2,600 skills")

    # A skill edited while no daemon runs: the restart parses it alone, and FTS5's merging as it
    # writes is enough (a whole merge would rewrite every segment for one skill).
    md = os.path.join(root, "kk-tool-007", "SKILL.md")
    with open(md, "a") as f:
        f.write("Now also snorkel.\n")
    d = Lsp(proj, env, args=("-v",))
    d.call("initialize", {"processId": None, "rootUri": "file://" + proj, "capabilities": {}})
    d.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    r = d.call("skills/lookup", {"task": "snorkel", "limit": 1, "waitMs": 60000})
    got = [x["name"] for x in (r or {}).get("result", {}).get("results", [])]
    check("a skill edited while no daemon ran is found by the restart's first lookup",
          got == ["kk-tool-007"], r)
    # An edit as that answer comes, before the watches are in place: the scan after the first
    # watch set finds it.
    with open(os.path.join(root, "yy-tool-033", "SKILL.md"), "a") as f:
        f.write("Also quibbleword.\n")
    got, r = found_within(d, "quibbleword")
    check("an edit made before the watches were in place is seen within 10 s", got == ["yy-tool-033"], r)
    sk = (d.call("upskilld/status", {}) or {}).get("result", {}).get("skills", {})
    check("that restart leaves no merge of the whole index to do (status merging false)",
          sk.get("merging") is False, sk)
    time.sleep(0.5)
    err = d.close("restart with one skill edited")
    check("the restart parsed one skill and merged nothing (its log)",
          "found (1 parsed," in err and "index merged" not in err, err[-1500:])

    # upskillctl waits for the index and shows every skill (a restart: the cache is reused).
    out = subprocess.run([CTL, "--json", "list", "--agent", "claude", "--scope", "project"],
                         cwd=proj, env=dict(env, UPSKILLD=DAEMON), capture_output=True, text=True,
                         timeout=300)
    try:
        lst = json.loads(out.stdout)
    except ValueError:
        lst = {}
    names = {s["name"] for s in lst.get("skills", [])}
    check("upskillctl list shows all 2,600 skills, every letter a..z",
          len(names) == N and {n[0] for n in names} == set(LETTERS), out.stderr[-800:])
    shutil.rmtree(env["XDG_CACHE_HOME"])  # a cold start: upskillctl must wait, not answer partially
    out = subprocess.run([CTL, "lookup", "quuxm042", "--limit", "1"], cwd=proj,
                         env=dict(env, UPSKILLD=DAEMON), capture_output=True, text=True, timeout=300)
    check("upskillctl lookup on a cold index waits for it and answers right",
          out.returncode == 0 and "mm-tool-042" in out.stdout and "partial" not in out.stderr,
          out.stdout + out.stderr)

    waiting_lookups(proj, env)
    merge_resumed(proj, env)

    # A runaway root: the directory limit is reported everywhere people look.
    d = Lsp(proj, env)
    d.call("initialize", {"processId": None, "rootUri": "file://" + proj, "capabilities": {},
                          "initializationOptions": {"skills": {"maxDirs": 1000}}})
    d.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    deadline = time.time() + 120
    while True:
        r = d.call("skills/list", {"agent": "claude", "scope": "project", "limit": 1})
        res = (r or {}).get("result", {})
        if "indexing" not in res or time.time() > deadline:
            break
        time.sleep(0.1)
    real_root = os.path.realpath(root)
    check("skills/list says the root was truncated, and which",
          res.get("truncated") is True and root in res.get("truncatedRoots", []) and res.get("total") == 1000,
          {k: v for k, v in res.items() if k != "skills"} | {"root": root, "real": real_root})
    r = d.call("skills/lookup", {"task": "quuxa001 jobs"})
    res = (r or {}).get("result", {})
    check("skills/lookup says so too", res.get("truncated") is True and root in res.get("truncatedRoots", []), res)
    r = d.call("upskilld/status", {})
    sk = (r or {}).get("result", {}).get("skills", {})
    check("upskilld/status names the truncated root and the limit",
          root in sk.get("truncatedRoots", []) and sk.get("maxDirs") == 1000, sk)
    warned = [n for n in d.notes if n["method"] == "window/logMessage" and n["params"]["type"] == 2
              and root in n["params"]["message"] and "directories" in n["params"]["message"]]
    check("one window/logMessage warning names the truncated root", len(warned) == 1,
          [n for n in d.notes if n["method"] == "window/logMessage"][-5:])
    d.close("session with a truncated root")


if __name__ == "__main__":
    sys.exit(main())
