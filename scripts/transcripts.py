#!/usr/bin/env python3
"""Protocol transcripts of a daemon build, for proving that a refactor changes no behaviour.

    scripts/transcripts.py --daemon BUILD/daemon/upskilld [--ctl BUILD/clients/upskillctl] \
        --out DIR
    diff -r DIR_BEFORE DIR_AFTER

Drives a fixed set of sessions through real pipes, each against a fresh daemon with its own
temporary HOME, XDG directories, TMPDIR and workspace (the same fixture files every time), and
writes one transcript per session into DIR: every message sent (`>`) and received (`<`) in the
order they crossed the pipe, the daemon's exit status and its stderr. Two builds behave the same
when `diff -r` of their transcript directories is empty. Python 3 standard library only.

Input is deterministic: each message is written, then the script waits for what it must cause
(its response, a publishDiagnostics, ...) and for the daemon to fall quiet (--settle-ms) before
the next one, so asynchronous output lands at the same place in the transcript every run. Only
the pipelined sessions write many messages at once, on purpose, to catch ordering changes.

Received messages are recorded as the daemon's bytes (its key order, its number formatting),
with only what legitimately varies between runs rewritten; see NORMALISATIONS below. LSP frames
are checked to carry exactly `Content-Length: N\\r\\n\\r\\n`; any other header is recorded.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# ---------------------------------------------------------------------------------------------
# NORMALISATIONS: what differs between two runs of the same build, and only that. Everything
# else is recorded as the daemon wrote it. Each one keeps its key or its sentence, so a field that
# appears, vanishes or moves still shows in a diff.
#
# 1. Paths. Each session's temporary root (mkdtemp: a new name every run, HOME, XDG dirs, TMPDIR
#    and the workspace below it) becomes <TMP>; the source tree of the build (the built-in skill
#    library lives there when uninstalled) becomes <SRC>, its build tree <BUILD>: two builds of
#    two commits live in two worktrees. mkdtemp names have a fixed length, so nothing that
#    depends on a path's length (a Content-Length, a column) varies either.
# 2. Measurements, by JSON key (VOLATILE_NUMBERS), also inside JSON embedded in a string (an MCP
#    tool result's text) and in upskillctl's indented JSON: the value becomes "<key>".
# 3. Measurements in upskillctl's human output (TEXT_RES): ping times, the status line's pid and
#    uptime, resident memory.
# 4. The wall-clock time stamp of each stderr log line (STDERR_STAMP).
#
# Not normalised, because each session makes it deterministic instead: a fresh XDG_CACHE_HOME
# (the skill index and the kernel cache start empty, so `cached` flags and cache counters do
# not depend on an earlier run); no worker server shared between sessions
# (UPSKILLD_WORKER_SERVER_IDLE=0); an environment holding no provider keys; the first skills
# request of a session waits for the first index (waitMs), so no answer is a partial one; and
# every step waits for what it causes (see Peer.wait_for). The toolkit, driver and library
# versions in status are those of this machine: compare runs made on the same machine.
# ---------------------------------------------------------------------------------------------

# Fields whose values are measurements of this run, not behaviour.
VOLATILE_NUMBERS = [
    "pid",  # process id of the daemon (upskilld/status)
    "uptimeMs",  # time since start-up (status)
    "rssKiB",  # resident memory (status)
    "compileMs",  # how long NVRTC or nvcc took (kernel/validate)
    "elapsedMs",  # wall time of the whole request (kernel/validate)
]
_NUM = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"


def _key_re(key):
    # "key":NUMBER, \"key\":NUMBER (one level of string embedding), "key": NUMBER (indented)
    return re.compile(r'((?:\\)?"' + re.escape(key) + r'(?:\\)?": ?)' + _NUM)


VOLATILE_RES = [(k, _key_re(k)) for k in VOLATILE_NUMBERS]

# Measurements in upskillctl's human output.
TEXT_RES = [
    # upskillctl ping: "pong in 0.072 ms"
    (re.compile(r"pong in " + _NUM + " ms"), "pong in <ms> ms"),
    # upskillctl status: "upskilld 0.1.0 (pid 10346, up 0.9 ms, lsp)"
    (re.compile(r"\(pid \d+, up " + _NUM + r" ms"), "(pid <pid>, up <ms> ms"),
    # upskillctl --json ping: {"ok": true, "ms": 0.070} (indented, so a space after the colon;
    # the daemon's own compact JSON never matches, so upskilld/sleep's "ms" param is kept)
    (re.compile(r'"ms": ' + _NUM), '"ms": "<ms>"'),
    # upskillctl status table: "memory   2040 KiB resident"
    (re.compile(r"(memory\s+)\d+ KiB resident"), r"\1<rss> KiB resident"),
]


class Normaliser:
    """Rewrites the run-specific parts of a text, each to a fixed placeholder."""

    def __init__(self, roots):
        # Longest first: the build tree lies inside the source tree, the temporary root is
        # unrelated to both. Each run has its own temporary root (mkdtemp), and each build its
        # own source and build directories (a worktree per commit).
        self.roots = sorted(((p, name) for p, name in roots if p), key=lambda x: -len(x[0]))

    def paths(self, text):
        for path, name in self.roots:
            text = text.replace(path, name)
        return text

    def __call__(self, text):
        text = self.paths(text)
        for key, rx in VOLATILE_RES:
            text = rx.sub(lambda m, key=key: m.group(1) + '"<' + key + '>"'
                          if not m.group(1).startswith("\\")
                          else m.group(1) + '\\"<' + key + '>\\"', text)
        for rx, rep in TEXT_RES:
            text = rx.sub(rep, text)
        return text


# stderr log lines carry the wall-clock time: "upskilld 13:25:57.540 warn: ..."; the rest is kept.
STDERR_STAMP = re.compile(r"^(upskill\w*) \d\d:\d\d:\d\d\.\d+ ")

# ---------------------------------------------------------------------------------------------
# One daemon over pipes
# ---------------------------------------------------------------------------------------------


class Peer:
    """A daemon (or anything speaking its framing) on pipes, with a transcript."""

    def __init__(self, sess, argv, framing, cwd):
        self.sess = sess
        self.framing = framing  # "lsp" or "mcp": how we frame what we send and parse replies
        self.msgs = []  # (raw body str, parsed json or None)
        self.cond = threading.Condition()
        self.eof = False
        self.last_rx = time.monotonic()
        self.wlock = threading.Lock()
        self.auto_reply = True
        self.stderr_file = open(os.path.join(sess.root, "stderr-%d" % len(sess.peers)), "w+b")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr_file, cwd=cwd, env=sess.env,
                                     start_new_session=True)
        sess.peers.append(self)
        sess.line("# spawn " + " ".join(os.path.basename(argv[0]) if i == 0 else a
                                        for i, a in enumerate(argv)))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # ---- output side ----

    def _read(self):
        fd = self.proc.stdout.fileno()
        buf = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buf += chunk
            buf = self._parse(buf)
        with self.cond:
            if buf:
                self.sess.line("< [partial output at EOF] " + self.sess.norm(
                    buf.decode("utf-8", "backslashreplace")))
            self.eof = True
            self.cond.notify_all()

    def _parse(self, buf):
        while True:
            if self.framing == "lsp":
                end = buf.find(b"\r\n\r\n")
                if end < 0:
                    return buf
                header = buf[:end].decode("latin-1")
                m = re.fullmatch(r"Content-Length: (\d+)", header)
                n = int(m.group(1)) if m else None
                if n is None:
                    m2 = re.search(r"(?i)content-length:\s*(\d+)", header)
                    n = int(m2.group(1)) if m2 else 0
                if len(buf) < end + 4 + n:
                    return buf
                body = buf[end + 4:end + 4 + n]
                buf = buf[end + 4 + n:]
                self._got(body, None if m else header)
            else:
                nl = buf.find(b"\n")
                if nl < 0:
                    return buf
                body, buf = buf[:nl], buf[nl + 1:]
                self._got(body, None)

    def _got(self, body, odd_header):
        text = body.decode("utf-8", "backslashreplace")
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        with self.cond:
            prefix = "< "
            if odd_header is not None:
                prefix += "[header %r] " % odd_header
            if parsed is None:
                prefix += "[not JSON] "
            self.sess.line(prefix + self.sess.norm(text))
            self.msgs.append(parsed)
            self.last_rx = time.monotonic()
            self.cond.notify_all()
        # A request from the server (workspace/codeLens/refresh): answer it as a client does.
        if (self.auto_reply and isinstance(parsed, dict) and "method" in parsed and "id" in parsed):
            self.send({"jsonrpc": "2.0", "id": parsed["id"], "result": None}, note="auto")

    # ---- input side ----

    def frame(self, text):
        data = text.encode()
        if self.framing == "lsp":
            return b"Content-Length: %d\r\n\r\n" % len(data) + data
        return data + b"\n"

    def write(self, data):
        with self.wlock:
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
                return True
            except (BrokenPipeError, OSError, ValueError):
                self.sess.line("# write failed: the daemon closed its input")
                return False

    def send(self, msg, note=None):
        """Write one message (a dict, or JSON/raw text sent verbatim) in our framing."""
        text = msg if isinstance(msg, str) else json.dumps(msg, separators=(",", ":"))
        with self.cond:
            # What we send holds no measurements: only the paths are rewritten.
            self.sess.line("> " + ("[%s] " % note if note else "") + self.sess.norm.paths(text))
        self.write(self.frame(text))

    def send_raw(self, data, label):
        """Write bytes with no framing added (framing tests)."""
        with self.cond:
            self.sess.line("> [raw %s] %s" % (label, json.dumps(self.sess.norm.paths(
                data.decode("utf-8", "backslashreplace")))))
        self.write(data)

    def close_stdin(self):
        with self.cond:
            self.sess.line("> [EOF]")
        with self.wlock:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    # ---- waiting ----

    def mark(self):
        with self.cond:
            return len(self.msgs)

    def wait_for(self, preds, since, timeout=None, settle_ms=None):
        """Wait until every predicate matched a message received after `since` (each its own
        message, in any order), then until nothing arrives for settle_ms. Returns the matched
        messages in the order of `preds`."""
        timeout = timeout or self.sess.timeout
        settle = (settle_ms if settle_ms is not None else self.sess.settle_ms) / 1000.0
        deadline = time.monotonic() + timeout
        found = [None] * len(preds)
        scanned = since
        with self.cond:
            while True:
                while scanned < len(self.msgs):
                    m = self.msgs[scanned]
                    for i, p in enumerate(preds):
                        if found[i] is None and m is not None and p(m):
                            found[i] = m
                            break
                    scanned += 1
                if all(f is not None for f in found):
                    break
                if self.eof:
                    self.sess.line("# EOF while waiting for %d message(s)" %
                                   sum(f is None for f in found))
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    self.sess.line("# TIMEOUT waiting for %d message(s)" %
                                   sum(f is None for f in found))
                    return found
                self.cond.wait(min(left, 0.5))
            # quiescence: nothing new for `settle`
            while not self.eof:
                quiet = time.monotonic() - self.last_rx
                if quiet >= settle:
                    break
                self.cond.wait(settle - quiet)
        return found

    def settle(self, settle_ms=None):
        self.wait_for([], self.mark(), settle_ms=settle_ms)

    def exchange(self, msg, *extra, settle_ms=None, timeout=None, note=None):
        """Send `msg`; wait for its response (when it has an id) and the `extra` predicates;
        return the response."""
        since = self.mark()
        self.send(msg, note=note)
        preds = []
        if isinstance(msg, dict) and "id" in msg and "method" in msg:
            preds.append(response(msg["id"]))
        preds.extend(extra)
        found = self.wait_for(preds, since, timeout=timeout, settle_ms=settle_ms)
        return found[0] if found else None

    def finish(self, timeout=None):
        """Close stdin if still open, wait for exit, record the status and stderr."""
        if not self.proc.stdin.closed:
            self.close_stdin()
        try:
            code = self.proc.wait(timeout or self.sess.timeout)
        except subprocess.TimeoutExpired:
            self.sess.line("# still running after %ds: killed" % (timeout or self.sess.timeout))
            os.killpg(self.proc.pid, signal.SIGKILL)
            code = self.proc.wait()
        self.reader.join(10)
        with self.cond:
            self.sess.line("# exit status %d" % code)
        self.record_stderr()
        return code

    def record_stderr(self):
        self.stderr_file.seek(0)
        err = self.stderr_file.read().decode("utf-8", "backslashreplace")
        self.stderr_file.close()
        for ln in err.splitlines():
            self.sess.line("! " + self.sess.norm(STDERR_STAMP.sub(r"\1 ", ln)))


# ---- predicates on received messages ----


def response(rid):
    def p(m):
        if isinstance(m, list):  # a batch answer holding this id
            return any(isinstance(e, dict) and e.get("id") == rid for e in m)
        return isinstance(m, dict) and "method" not in m and m.get("id") == rid
    return p


def batch_response():
    return lambda m: isinstance(m, list)


def note(method, **match):
    def p(m):
        if not isinstance(m, dict) or m.get("method") != method:
            return False
        params = m.get("params") or {}
        return all(params.get(k) == v for k, v in match.items())
    return p


def progress(token, kind=None, message=None):
    """An LSP $/progress or MCP notifications/progress on `token`."""
    def p(m):
        if not isinstance(m, dict):
            return False
        prm = m.get("params") or {}
        if m.get("method") == "$/progress" and prm.get("token") == token:
            v = prm.get("value") or {}
            return (kind is None or v.get("kind") == kind) and (
                message is None or v.get("message") == message)
        if m.get("method") == "notifications/progress" and prm.get("progressToken") == token:
            return message is None or prm.get("message") == message
        return False
    return p


def publish(uri):
    return note("textDocument/publishDiagnostics", uri=uri)


# ---------------------------------------------------------------------------------------------
# A session: a temporary world and a transcript
# ---------------------------------------------------------------------------------------------


class Session:
    def __init__(self, name, opts):
        self.name = name
        self.opts = opts
        self.timeout = opts.timeout
        self.settle_ms = opts.settle_ms
        self.lines = []
        self.peers = []
        self.llock = threading.Lock()
        # mkdtemp names have a fixed length, so nothing that depends on a path's length varies.
        self.root = tempfile.mkdtemp(prefix="upk-tr-", dir=opts.tmp)
        self.ws = os.path.join(self.root, "ws")
        self.home = os.path.join(self.root, "home")
        for d in ("ws", "home", "config", "cache", "state", "data", "run", "tmp"):
            os.makedirs(os.path.join(self.root, d), mode=0o700)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "HOME": self.home,
            "XDG_CONFIG_HOME": os.path.join(self.root, "config"),
            # A fresh cache every session: the skill index and the kernel cache start empty, so
            # `cached` flags and index timings do not depend on an earlier run.
            "XDG_CACHE_HOME": os.path.join(self.root, "cache"),
            "XDG_STATE_HOME": os.path.join(self.root, "state"),
            "XDG_DATA_HOME": os.path.join(self.root, "data"),
            "XDG_RUNTIME_DIR": os.path.join(self.root, "run"),
            "TMPDIR": os.path.join(self.root, "tmp"),
            # No warm worker server outlives the daemon (it would be shared across sessions).
            "UPSKILLD_WORKER_SERVER_IDLE": "0",
        }
        if opts.cuda_path:
            self.env["CUDA_PATH"] = opts.cuda_path
        if opts.ctl:
            self.env["UPSKILLD"] = opts.daemon  # upskillctl spawns the daemon under test
        self.norm = Normaliser([(self.root, "<TMP>"), (opts.src, "<SRC>"),
                                (opts.build, "<BUILD>")])
        make_fixtures(self)

    def line(self, text):
        with self.llock:
            self.lines.append(text)

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def uri(self, *parts):
        return "file://" + self.path(*parts)

    def daemon(self, framing, *args, cwd=None):
        argv = [self.opts.daemon] + list(args)
        return Peer(self, argv, framing, cwd or self.ws)

    def ctl(self, *args, cwd=None):
        """Run upskillctl once; record its stdout, stderr and exit status."""
        argv = [self.opts.ctl] + list(args)
        self.line("$ upskillctl " + " ".join(self.norm.paths(a) for a in args))
        try:
            p = subprocess.run(argv, cwd=cwd or self.ws, env=self.env, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=self.timeout)
            out, err, code = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            out, err, code = e.stdout or b"", e.stderr or b"", "timeout"
        for ln in out.decode("utf-8", "backslashreplace").splitlines():
            self.line("| " + self.norm(ln))
        for ln in err.decode("utf-8", "backslashreplace").splitlines():
            self.line("! " + self.norm(STDERR_STAMP.sub(r"\1 ", ln)))
        self.line("# exit status %s" % code)

    def close(self):
        for p in self.peers:
            if p.proc.poll() is None:
                os.killpg(p.proc.pid, signal.SIGKILL)
                p.proc.wait()
        if not self.opts.keep:
            shutil.rmtree(self.root, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Fixtures: the same files in every session
# ---------------------------------------------------------------------------------------------

GOOD_SKILL = """---
name: {name}
description: {desc}
---
# {title}

{body}
"""

SKILLS = {
    # workspace/.claude/skills
    ("ws", ".claude/skills", "cuda-occupancy"): (
        "Raise the occupancy of CUDA kernels on H100: registers, shared memory, block size. "
        "Use when a kernel is register-bound or occupancy is low.",
        "Occupancy",
        "Check registers per thread first, then shared memory per block.\n\n"
        "- `__launch_bounds__` caps registers.\n- Prefer 256 threads per block.\n"),
    ("ws", ".claude/skills", "release-notes"): (
        "Write release notes from a git log. Use when preparing a release.",
        "Release notes",
        "Group commits by area; lead with what users notice.\n"),
    # workspace/.agents/skills
    ("ws", ".agents/skills", "warp-shuffles"): (
        "Use warp shuffle intrinsics (__shfl_down_sync) for reductions in CUDA kernels. "
        "Use when reducing across a warp.",
        "Warp shuffles",
        "Always pass a full mask: `0xffffffff`.\n"),
    ("ws", ".agents/skills", "release-notes"): (
        "Release notes, the agents' copy. Use when preparing a release.",
        "Release notes (agents)",
        "Same as the Claude copy, shorter.\n"),
    # the user's own skills: shadowed by the project's release-notes for claude
    ("home", ".claude/skills", "release-notes"): (
        "The user's release notes skill. Use when preparing a release.",
        "Release notes (user)",
        "User scope.\n"),
    ("home", ".claude/skills", "python-profiling"): (
        "Profile Python programs with cProfile and py-spy. Use when a Python program is slow.",
        "Profiling Python",
        "Start with `python -m cProfile -s cumtime`.\n"),
}

BAD_SKILL = """---
name: Bad_Name
description: x
unknown-key: 3
---
"""

NEW_SKILL = GOOD_SKILL.format(
    name="new-skill", desc="A skill installed by the transcript run. Use when testing installs.",
    title="New skill", body="Body of the new skill.\n")

GOOD_CU = """extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""

BROKEN_CU = """__global__ void k(float *y) {
  y[0] = undeclared_thing;
}
"""

# Two kernels (one register-bound at 256 threads, one a template instance) and a launch, for
# lenses and hovers (tests/integration/test_editor.c's heavy.cu).
EDITOR_CU = """// heavy.cu
__global__ void heavy(float *y) {
  float acc[64];
#pragma unroll
  for (int j = 0; j < 64; j++) acc[j] = y[threadIdx.x + j] * j;
  float s = 0;
#pragma unroll
  for (int j = 0; j < 64; j++) s += acc[j] * acc[(j * 7) % 64];
  y[threadIdx.x] = s;
}
template <typename T> __global__ void scale(T *y, T a) { y[threadIdx.x] *= a; }
template __global__ void scale<float>(float *, float);
void launch(float *y) { heavy<<<1, 256>>>(y); }
"""

# The deprecated __shfl_down: a lint with a mechanical fix.
LINT_CU = """__global__ void k(float *y) {
  float s = y[threadIdx.x];
  s += __shfl_down(s, 1);
  y[threadIdx.x] = s;
}
"""

# 160 live floats: register-bound, low occupancy; the fix adds __launch_bounds__.
FAT_CU = """__global__ void fat(const float *x, float *y) {
  float v[160];
#pragma unroll
  for (int j = 0; j < 160; j++) v[j] = x[j * 1024 + threadIdx.x];
  float s = 0;
#pragma unroll
  for (int j = 0; j < 160; j++) s += v[j] * v[159 - j] * v[(j * 13) % 160];
#pragma unroll
  for (int j = 0; j < 160; j++) y[j * 1024 + threadIdx.x] = v[j] * s;
}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_fixtures(s):
    for (base, rel, name), (desc, title, body) in SKILLS.items():
        write(s.path(base, rel, name, "SKILL.md"),
              GOOD_SKILL.format(name=name, desc=desc, title=title, body=body))
    write(s.path("ws", ".claude/skills/cuda-occupancy/references/limits.md"),
          "# H100 limits\n\n65536 registers per SM, 228 KiB shared memory.\n")
    write(s.path("ws", "drafts/Bad_Name/SKILL.md"), BAD_SKILL)
    write(s.path("ws", "drafts/new-skill/SKILL.md"), NEW_SKILL)
    write(s.path("ws", "drafts/new-skill/scripts/run.sh"), "#!/bin/sh\necho new-skill\n")
    write(s.path("ws", "kernels/saxpy.cu"), GOOD_CU)
    write(s.path("ws", "kernels/broken.cu"), BROKEN_CU)
    write(s.path("ws", "kernels/editor.cu"), EDITOR_CU)
    write(s.path("ws", "kernels/lint.cu"), LINT_CU)
    write(s.path("ws", "kernels/fat.cu"), FAT_CU)
    write(s.path("ws", "CMakeLists.txt"), "project(t LANGUAGES CUDA)\n")
    write(s.path("ws", "upskill.config.yaml"), "max_refine_attempts: 2\n")


# ---------------------------------------------------------------------------------------------
# Sessions
# ---------------------------------------------------------------------------------------------


def rpc(rid, method, params=None):
    m = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        m["params"] = params
    return m


def notif(method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    return m


def lsp_init(d, s, rid=0, options=None, caps=None):
    params = {"processId": None, "rootUri": s.uri("ws"),
              "capabilities": caps if caps is not None else {"window": {"workDoneProgress": True}},
              "clientInfo": {"name": "transcripts", "version": "1"}}
    if options is not None:
        params["initializationOptions"] = options
    r = d.exchange(rpc(rid, "initialize", params))
    d.exchange(notif("initialized", {}))
    return r


def lsp_end(d, rid):
    d.exchange(rpc(rid, "shutdown"))
    d.send(notif("exit"))
    d.finish()


def session_lsp_lifecycle(s):
    """Lifecycle and JSON-RPC envelope errors over LSP framing."""
    d = s.daemon("lsp", "--lsp")
    d.exchange(rpc(1, "upskilld/status"))  # -32002 before initialize
    d.exchange(rpc(2, "skills/list", {}))  # -32002
    d.exchange(rpc(3, "ping"))  # allowed before initialize
    d.exchange(notif("$/cancelRequest", {"id": 99}))  # ignored
    d.exchange(rpc(4, "initialize", []))  # -32602
    d.exchange(rpc(5, "initialize", {"rootUri": 7}))  # -32602
    d.exchange(rpc(6, "initialize", {"capabilities": [], "processId": None}))  # -32602
    d.exchange(rpc(7, "initialize", {"processId": None, "rootUri": s.uri("ws"), "capabilities": {},
                                     "initializationOptions": {"warmKernels": "yes"}}))  # -32602
    lsp_init(d, s, rid=8, options={"warmKernels": False, "theme": "dark"})
    d.exchange(rpc(9, "initialize", {"processId": None, "capabilities": {}}))  # -32600 second
    d.exchange(rpc(10, "no/such/method", {}))  # -32601
    d.exchange(rpc(11, "$/foo", {}))  # -32601 (a $/ request)
    d.exchange(notif("$/foo", {}))  # ignored
    d.exchange(notif("$/setTrace", {"value": "off"}))
    d.exchange(notif("no/such/notification", {}))
    d.exchange(rpc(12, "textDocument/definition", {"textDocument": {"uri": "file:///x"},
                                                   "position": {"line": 0, "character": 0}}))
    d.exchange(rpc(13, "textDocument/hover", {}))  # -32602 no textDocument.uri
    d.exchange(rpc(14, "skills/lookup", {"task": "x", "limit": 500}))  # -32602 range
    d.exchange(rpc(15, "skills/lookup", {"task": "x", "bogus": 1}))  # -32602 unknown
    d.exchange(rpc(16, "skills/lookup", ["x"]))  # -32602 array
    d.exchange(rpc(17, "skills/lookup", {}))  # -32602 missing
    d.exchange(rpc(18, "skills/list", {"agent": "nobody"}))  # -32602 unknown agent
    d.exchange(rpc(19, "skills/validate", {}))  # neither path nor text
    d.exchange(rpc(20, "upskilld/sleep", {"ms": 1}))  # -32601 without --test-methods
    d.exchange(rpc(21, "upskilld/status", 5))  # params neither object nor array
    # Envelope errors (-32600) and malformed JSON (-32700)
    d.exchange('{"jsonrpc":"2.0","id":22,"method":"ping"', response(None))
    d.exchange('{"id":23,"method":"ping"}', response(23))
    d.exchange('{"jsonrpc":"1.0","id":24,"method":"ping"}', response(24))
    d.exchange('{"jsonrpc":"2.0","id":null,"method":"ping"}', response(None))
    d.exchange('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', response(None))
    d.exchange('{"jsonrpc":"2.0","id":25}', response(25))
    d.exchange('{"jsonrpc":"2.0","id":26,"method":7}', response(26))
    d.exchange('[{"jsonrpc":"2.0","id":27,"method":"ping"}]', response(None))  # no LSP batches
    d.exchange('"just a string"', response(None))
    d.exchange('{"jsonrpc":"2.0","id":"s","method":"ping"}', response("s"))
    d.exchange('{"jsonrpc":"2.0","id":-7,"method":"ping"}', response(-7))
    d.exchange('{"jsonrpc":"2.0","id":28,"result":{}}')  # a response from the client: ignored
    d.exchange('{"jsonrpc":"2.0","id":29,"method":"ping","params":null}', response(29))
    # Framing errors: each answered with id null, then reading goes on.
    since = d.mark()
    d.send_raw(b"X-Nothing: 1\r\n\r\n{}", "header without Content-Length")
    d.wait_for([response(None)], since)
    since = d.mark()
    d.send_raw(b"Content-Length: -3\r\n\r\n", "negative Content-Length")
    d.wait_for([response(None)], since)
    since = d.mark()
    d.send_raw(b"content-length:   0\r\n\r\n", "empty body")
    d.wait_for([response(None)], since)
    since = d.mark()
    body = b'{"jsonrpc":"2.0","id":30,"method":"ping"}'
    d.send_raw(b"\r\nContent-Type: application/json\r\ncontent-LENGTH: \t%d \r\n"
               b"no colon here\r\nContent-Length: 1\r\ncontent-length: %d\n\r\n%s"
               % (len(body), len(body), body), "odd but valid headers, the last length wins")
    d.wait_for([response(30)], since)
    since = d.mark()
    bad = b"\xff\xfe not utf-8 at all"
    d.send_raw(b"Content-Length: %d\r\n\r\n%s" % (len(bad), bad), "invalid UTF-8")
    d.wait_for([response(None)], since)
    d.exchange(rpc(31, "ping"))
    d.exchange(rpc(32, "shutdown"))
    d.exchange(rpc(33, "ping"))  # -32600 after shutdown
    d.exchange(rpc(34, "upskilld/status"))  # -32600
    d.exchange(rpc(35, "shutdown"))
    d.send(notif("exit"))
    d.finish()
    # exit without shutdown: status 1
    d = s.daemon("lsp")
    lsp_init(d, s, options={"warmKernels": False})
    d.send(notif("exit"))
    d.finish()
    # EOF right after initialize: status 0; and EOF inside a message
    d = s.daemon("lsp")
    lsp_init(d, s, options={"warmKernels": False})
    d.send_raw(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"", "cut short by EOF")
    d.settle()
    d.finish()


def status_call(d, rid, token=None):
    return d.exchange(rpc(rid, "upskilld/status", {"workDoneToken": token} if token else {}))


def session_lsp_skills(s):
    """The skills methods over LSP, on a workspace with project and user skills."""
    d = s.daemon("lsp", "--lsp")
    lsp_init(d, s, options={"warmKernels": False, "theme": "dark",
                            "upskilld": {"max_refine_attempts": 3}})
    # The first lookup waits for the first index, so the rest sees every skill.
    d.exchange(rpc(1, "skills/lookup", {"task": "cuda kernel occupancy registers",
                                        "waitMs": 60000}))
    status_call(d, 2)
    d.exchange(rpc(3, "skills/lookup", {"task": "release notes", "limit": 5}))
    d.exchange(rpc(4, "skills/lookup", {"task": "warp shuffle reduction",
                                        "agents": ["codex"]}))
    d.exchange(rpc(5, "skills/lookup", {"task": "nothing matches this zzzqqq"}))
    d.exchange(rpc(6, "skills/list", {}))
    d.exchange(rpc(7, "skills/list", {"agent": "claude"}))
    d.exchange(rpc(8, "skills/list", {"scope": "user"}))
    d.exchange(rpc(9, "skills/list", {"offset": 1, "limit": 2}))
    d.exchange(rpc(10, "skills/get", {"name": "cuda-occupancy"}))
    d.exchange(rpc(11, "skills/get", {"name": "release-notes", "agent": "codex"}))
    d.exchange(rpc(12, "skills/get", {"name": "no-such-skill"}))
    d.exchange(rpc(13, "skills/prompt", {}))
    d.exchange(rpc(14, "skills/prompt", {"agent": "claude"}))
    d.exchange(rpc(15, "skills/validate", {"path": ".claude/skills/cuda-occupancy/SKILL.md"}))
    d.exchange(rpc(16, "skills/validate", {"path": "drafts/Bad_Name/SKILL.md"}))
    d.exchange(rpc(17, "skills/validate", {"path": "drafts/Bad_Name/SKILL.md",
                                           "mode": "lenient"}))
    d.exchange(rpc(18, "skills/validate", {"text": BAD_SKILL}))
    d.exchange(rpc(19, "skills/validate", {"text": NEW_SKILL, "mode": "strict"}))
    d.exchange(rpc(20, "skills/validate", {"path": "drafts/missing/SKILL.md"}))
    d.exchange(rpc(21, "skills/validate", {"text": "x", "path": "y"}))
    # Install into the workspace, then let the watchers refresh the index before asking.
    d.exchange(rpc(22, "skills/install", {"from": s.path("ws", "drafts/new-skill"),
                                          "workDoneToken": "in"}), settle_ms=1500)
    d.exchange(rpc(23, "skills/install", {"from": "drafts/new-skill"}), settle_ms=1500)
    d.exchange(rpc(24, "skills/list", {"agent": "claude"}))
    d.exchange(rpc(25, "skills/lookup", {"task": "installed by the transcript run"}))
    d.exchange(rpc(26, "skills/install", {"from": s.path("ws", "drafts/Bad_Name")}))
    d.exchange(rpc(27, "skills/install", {"from": {"markdown": NEW_SKILL.replace(
        "Body of the new skill.", "A different body.")}}))  # exists, differs, no force
    d.exchange(rpc(28, "skills/install", {"from": {"markdown": GOOD_SKILL.format(
        name="inline-skill", desc="Made from markdown. Use when testing.", title="Inline",
        body="Inline body.\n"), "files": [{"path": "notes.txt", "content": "hello\n"}]},
        "agents": ["claude"]}), settle_ms=1500)
    d.exchange(rpc(29, "skills/install", {"from": {"markdown": NEW_SKILL, "files": [
        {"path": "../escape.txt", "content": "x"}]}, "force": True}))
    d.exchange(rpc(30, "skills/remove", {"name": "new-skill"}), settle_ms=1500)
    d.exchange(rpc(31, "skills/remove", {"name": "inline-skill", "agents": ["claude"]}),
               settle_ms=1500)
    d.exchange(rpc(32, "skills/remove", {"name": "no-such-skill"}))
    d.exchange(rpc(33, "skills/list", {}))
    d.exchange(rpc(34, "skills/install", {"from": 7}))
    d.exchange(rpc(35, "runs/list", {}))
    lsp_end(d, 36)
    s.line("# files left in the workspace's skills directories")
    for base in (".claude/skills", ".agents/skills"):
        top = s.path("ws", base)
        for dirpath, dirs, files in sorted(os.walk(top)):
            dirs.sort()
            for f in sorted(files):
                s.line("= " + s.norm(os.path.join(dirpath, f)))


def session_lsp_kernel(s):
    """kernel/validate over LSP (NVRTC in a worker process)."""
    d = s.daemon("lsp", "--lsp")
    lsp_init(d, s, options={"warmKernels": True})
    d.exchange(rpc(1, "kernel/validate", {"source": GOOD_CU, "workDoneToken": "k1"}))
    d.exchange(rpc(2, "kernel/validate", {"source": GOOD_CU}))  # the same text: cached
    d.exchange(rpc(3, "kernel/validate", {"source": BROKEN_CU}))
    d.exchange(rpc(4, "kernel/validate", {"path": "kernels/saxpy.cu", "blockSize": 128}))
    d.exchange(rpc(5, "kernel/validate", {"path": s.path("ws", "kernels/broken.cu"),
                                          "cache": False}))
    d.exchange(rpc(6, "kernel/validate", {"source": EDITOR_CU, "blockSizes": [128, 256],
                                          "names": ["reduce"]}))
    d.exchange(rpc(7, "kernel/validate", {"path": "kernels/missing.cu"}))
    d.exchange(rpc(8, "kernel/validate", {}))
    d.exchange(rpc(9, "kernel/validate", {"source": GOOD_CU, "path": "x.cu"}))
    d.exchange(rpc(10, "kernel/validate", {"source": GOOD_CU, "arch": "sm_1"}))
    d.exchange(rpc(11, "kernel/validate", {"source": '#include "/etc/passwd"\n'}))
    d.exchange(rpc(12, "kernel/validate", {"source": GOOD_CU,
                                           "defines": ["N=4"], "std": "c++17"}))
    d.exchange(rpc(13, "kernel/validate", {"source": GOOD_CU, "defines": {"N": "4"}}))
    status_call(d, 14)
    lsp_end(d, 15)


def diagnostics_of(pub):
    return ((pub or {}).get("params") or {}).get("diagnostics") or []


def result_of(resp):
    return (resp or {}).get("result")


def session_lsp_editor(s):
    """textDocument sync, diagnostics, lenses, hovers, completion, code actions, commands."""
    d = s.daemon("lsp", "--lsp")
    caps = {"window": {"workDoneProgress": True},
            "workspace": {"codeLens": {"refreshSupport": True}}}
    lsp_init(d, s, options={"warmKernels": False}, caps=caps)
    d.exchange(rpc(1, "skills/lookup", {"task": "warp", "waitMs": 60000}))
    slow = max(s.timeout, 180)  # the first check of a .cu starts a worker and compiles

    def at(uri, line, character):
        return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}

    def doc_of(uri):
        return {"textDocument": {"uri": uri}}

    # ---- a SKILL.md: a blank line left in the frontmatter for completion ----
    skill_uri = s.uri("ws", ".claude/skills/release-notes/SKILL.md")
    text = ("---\nname: release-notes\ndescription: Write release notes from a git log. Use when "
            "preparing a release.\n\n---\n# Release notes\n\nGroup commits by area.\n")
    doc = {"uri": skill_uri, "languageId": "markdown", "version": 1, "text": text}
    d.exchange(notif("textDocument/didOpen", {"textDocument": doc}), publish(skill_uri))
    d.exchange(rpc(2, "textDocument/codeLens", doc_of(skill_uri)))
    d.exchange(rpc(3, "textDocument/hover", at(skill_uri, 2, 3)))
    d.exchange(rpc(4, "textDocument/hover", at(skill_uri, 1, 1)))
    d.exchange(rpc(5, "textDocument/hover", at(skill_uri, 7, 2)))  # the body: nothing
    d.exchange(rpc(6, "textDocument/completion", at(skill_uri, 3, 0)))
    d.exchange(rpc(7, "textDocument/completion", at(skill_uri, 6, 0)))  # the body: none
    bad = text.replace("name: release-notes", "name: Release_Notes")
    pub = d.exchange(notif("textDocument/didChange", {
        "textDocument": {"uri": skill_uri, "version": 2}, "contentChanges": [{"text": bad}]}),
        publish(skill_uri))
    diags = diagnostics_of(pub)
    if diags:
        d.exchange(rpc(8, "textDocument/codeAction", {
            "textDocument": {"uri": skill_uri}, "range": diags[0]["range"],
            "context": {"diagnostics": diags[:1]}}))
    d.exchange(rpc(9, "textDocument/codeLens", doc_of(skill_uri)))
    # A save checks the document again (after the edit debounce): wait for it, or the close
    # would race it.
    d.exchange(notif("textDocument/didSave", {"textDocument": {"uri": skill_uri}}),
               publish(skill_uri))
    d.exchange(notif("textDocument/didClose", {"textDocument": {"uri": skill_uri}}),
               publish(skill_uri))
    # ---- a .cu: lenses and hovers from the last check ----
    cu_uri = s.uri("ws", "kernels/editor.cu")
    doc = {"uri": cu_uri, "languageId": "cuda-cpp", "version": 1, "text": EDITOR_CU}
    # The lenses asked for at once come with the first check.
    since = d.mark()
    d.send(notif("textDocument/didOpen", {"textDocument": doc}))
    d.send(rpc(10, "textDocument/codeLens", doc_of(cu_uri)))
    d.wait_for([publish(cu_uri), response(10)], since, timeout=slow)
    d.exchange(rpc(11, "textDocument/codeLens", doc_of(cu_uri)))
    d.exchange(rpc(12, "textDocument/hover", at(cu_uri, 1, 18)))  # the definition
    d.exchange(rpc(13, "textDocument/hover", at(cu_uri, 12, 26)))  # the launch
    d.exchange(rpc(14, "textDocument/hover", at(cu_uri, 10, 40)))  # the template
    d.exchange(rpc(15, "textDocument/hover", at(cu_uri, 4, 30)))  # not a kernel
    d.exchange(rpc(16, "workspace/executeCommand", {"command": "upskilld.kernelInfo",
                                                    "arguments": [cu_uri, "heavy"]}))
    d.exchange(rpc(17, "workspace/executeCommand", {"command": "upskilld.nope"}))
    d.exchange(rpc(18, "textDocument/completion", at(cu_uri, 1, 0)))
    d.exchange(rpc(19, "textDocument/definition", at(cu_uri, 1, 18)))
    # A typo mid-edit: each kernel keeps its last figures, marked stale, at its new line.
    broken = ("// a line added above\n" + EDITOR_CU +
              "__global__ void fresh(float *y) { y[0] = }\n")
    d.exchange(notif("textDocument/didChange", {
        "textDocument": {"uri": cu_uri, "version": 2}, "contentChanges": [{"text": broken}]}),
        publish(cu_uri), timeout=slow)
    d.exchange(rpc(20, "textDocument/codeLens", doc_of(cu_uri)))
    d.exchange(rpc(21, "workspace/executeCommand", {"command": "upskilld.kernelInfo",
                                                    "arguments": [cu_uri, "heavy"]}))
    d.exchange(notif("textDocument/didClose", {"textDocument": {"uri": cu_uri}}),
               publish(cu_uri))
    d.exchange(rpc(22, "textDocument/codeLens", doc_of(cu_uri)))
    # ---- lint fixes: the deprecated intrinsic, then low occupancy ----
    lint_uri = s.uri("ws", "kernels/lint.cu")
    pub = d.exchange(notif("textDocument/didOpen", {"textDocument": {
        "uri": lint_uri, "languageId": "cuda-cpp", "version": 1, "text": LINT_CU}}),
        publish(lint_uri), timeout=slow)
    find = None
    for i, dg in enumerate(diagnostics_of(pub)):
        r = d.exchange(rpc(30 + i, "textDocument/codeAction", {
            "textDocument": {"uri": lint_uri}, "range": dg["range"],
            "context": {"diagnostics": [dg]}}))
        for a in result_of(r) or []:
            cmd = a.get("command") if isinstance(a, dict) else None
            if isinstance(cmd, dict) and cmd.get("command") == "upskilld.findSkill":
                find = find or cmd
    d.exchange(rpc(40, "textDocument/codeAction", {
        "textDocument": {"uri": lint_uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
        "context": {"diagnostics": []}}))
    if find:
        r = d.exchange(rpc(41, "workspace/executeCommand", {
            "command": find["command"], "arguments": find.get("arguments", []),
            "workDoneToken": "fs"}))
        results = (result_of(r) or {}).get("results") or []
        builtin = [x for x in results if isinstance(x, dict) and x.get("scope") == "builtin"]
        if builtin:  # "Install it": the follow-up of a found skill
            d.exchange(rpc(42, "workspace/executeCommand", {
                "command": "upskilld.installSkill",
                "arguments": [{"from": os.path.dirname(builtin[0]["path"]),
                               "agents": ["claude"]}]}), settle_ms=1500)
    d.exchange(notif("textDocument/didClose", {"textDocument": {"uri": lint_uri}}),
               publish(lint_uri))
    fat_uri = s.uri("ws", "kernels/fat.cu")
    pub = d.exchange(notif("textDocument/didOpen", {"textDocument": {
        "uri": fat_uri, "languageId": "cuda-cpp", "version": 1, "text": FAT_CU}}),
        publish(fat_uri), timeout=slow)
    for i, dg in enumerate(diagnostics_of(pub)):
        d.exchange(rpc(50 + i, "textDocument/codeAction", {
            "textDocument": {"uri": fat_uri}, "range": dg["range"],
            "context": {"diagnostics": [dg]}}))
    fixed = FAT_CU.replace("__global__ void fat", "__global__ void __launch_bounds__(256, 2) fat")
    d.exchange(notif("textDocument/didChange", {
        "textDocument": {"uri": fat_uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
        publish(fat_uri), timeout=slow)
    d.exchange(rpc(60, "textDocument/codeLens", doc_of(fat_uri)))
    d.exchange(notif("textDocument/didClose", {"textDocument": {"uri": fat_uri}}),
               publish(fat_uri))
    status_call(d, 61)
    lsp_end(d, 62)


def session_lsp_cancel(s):
    """Progress and cancellation with the test-only upskilld/sleep."""
    d = s.daemon("lsp", "--lsp", "--test-methods")
    lsp_init(d, s, options={"warmKernels": False})
    # A full progress sequence: begin, reports, end, then the answer.
    d.exchange(rpc(1, "upskilld/sleep", {"ms": 300, "steps": 3, "workDoneToken": "t1"}))
    d.exchange(rpc(2, "upskilld/sleep", {"ms": 0, "steps": 1, "fail": "boom"}))
    d.exchange(rpc(3, "upskilld/sleep", {"ms": -5}))
    d.exchange(rpc(4, "upskilld/sleep", {"ms": 1, "steps": 0}))
    # A slow request cancelled once it has started (its second step would come after 60 s).
    since = d.mark()
    d.send(rpc("long", "upskilld/sleep", {"ms": 120000, "steps": 2, "workDoneToken": "t2"}))
    d.wait_for([progress("t2", "report", "started")], since)
    d.exchange(notif("$/cancelRequest", {"id": "long"}), response("long"))
    d.exchange(notif("$/cancelRequest", {"id": "long"}))  # already answered: ignored
    d.exchange(notif("$/cancelRequest", {"id": 12345}))  # unknown: ignored
    d.exchange(rpc("long", "upskilld/sleep", {"ms": 10, "steps": 1}))  # the id is free again
    # A duplicate id in flight
    since = d.mark()
    d.send(rpc(5, "upskilld/sleep", {"ms": 120000, "steps": 2, "workDoneToken": 55}))
    d.wait_for([progress(55, "report", "started")], since)
    d.exchange(rpc(5, "ping"))  # -32600 already in use
    d.exchange(notif("$/cancelRequest", {"id": 5}), response(5))
    # exit without shutdown while a request is in flight: -32800, status 1
    since = d.mark()
    d.send(rpc(6, "upskilld/sleep", {"ms": 120000, "steps": 2, "workDoneToken": "t6"}))
    d.wait_for([progress("t6", "report", "started")], since)
    d.exchange(notif("exit"), response(6))
    d.finish()
    # shutdown drains what is in flight first
    d = s.daemon("lsp", "--lsp", "--test-methods")
    lsp_init(d, s, options={"warmKernels": False})
    since = d.mark()
    d.send(rpc(1, "upskilld/sleep", {"ms": 400, "steps": 2}))
    d.send(rpc(2, "shutdown"))
    d.wait_for([response(1), response(2)], since)
    d.send(notif("exit"))
    d.finish()
    # a short grace period runs out: -32800 naming it
    d = s.daemon("lsp", "--lsp", "--test-methods", "--shutdown-grace=0.2")
    lsp_init(d, s, options={"warmKernels": False})
    since = d.mark()
    d.send(rpc(1, "upskilld/sleep", {"ms": 120000, "steps": 2, "workDoneToken": "g"}))
    d.wait_for([progress("g", "report", "started")], since)
    d.exchange(rpc(2, "shutdown"), response(1))
    d.send(notif("exit"))
    d.finish()


# ---- MCP ----

MCP_CLIENT = {"name": "transcripts", "version": "1"}


def mcp_init(d, version, rid=0):
    d.exchange(rpc(rid, "initialize", {"protocolVersion": version, "capabilities": {},
                                       "clientInfo": MCP_CLIENT}))
    d.exchange(notif("notifications/initialized"))


def tool(rid, name, args=None, token=None):
    p = {"name": name}
    if args is not None:
        p["arguments"] = args
    if token is not None:
        p["_meta"] = {"progressToken": token}
    return rpc(rid, "tools/call", p)


def session_mcp_legacy(s):
    """MCP stdio, 2025-11-25: tools, resources, the skills extension, logging."""
    d = s.daemon("mcp", "--mcp")
    d.exchange(rpc(1, "tools/list"))  # -32002 before initialize
    d.exchange(rpc(2, "ping"))
    d.exchange(rpc(3, "initialize", {"capabilities": {}}))  # -32602 no protocolVersion
    mcp_init(d, "2025-11-25", rid=4)
    d.exchange(rpc(5, "tools/list"))
    d.exchange(rpc(6, "tools/list", {"cursor": "x"}))
    d.exchange(tool(7, "find_skill", {"task": "cuda occupancy", "waitMs": 60000}))
    d.exchange(tool(8, "find_skill", {"task": "release notes", "limit": 2}))
    d.exchange(tool(9, "find_skill", {"task": "x", "limit": 500}))  # bad argument: isError
    d.exchange(tool(10, "find_skill", {"task": 5}))
    d.exchange(tool(11, "find_skill", {"task": "x", "nope": True}))
    d.exchange(tool(12, "validate_skill", {"text": NEW_SKILL}))
    d.exchange(tool(13, "validate_skill", {"text": BAD_SKILL}))
    d.exchange(tool(14, "validate_skill", {"path": "drafts/Bad_Name/SKILL.md"}))
    d.exchange(tool(15, "validate_kernel", {"source": GOOD_CU}), timeout=max(s.timeout, 180))
    d.exchange(tool(16, "validate_kernel", {"source": BROKEN_CU}))
    d.exchange(tool(17, "status", {}))
    d.exchange(tool(18, "status"))
    d.exchange(tool(19, "list_skills", {}))
    d.exchange(tool(20, "get_skill", {"name": "warp-shuffles"}))
    d.exchange(tool(21, "get_skill", {"name": "nope"}))
    d.exchange(tool(22, "skills_prompt", {}))
    d.exchange(tool(23, "install_skill", {"from": "drafts/Bad_Name"}))
    d.exchange(tool(24, "no_such_tool", {}))
    d.exchange(rpc(25, "tools/call", {"arguments": {}}))
    d.exchange(rpc(26, "tools/call", {"name": "status", "arguments": 3}))
    d.exchange(rpc(27, "tools/call", {"name": "status", "arguments": None}))
    d.exchange(rpc(28, "upskilld/status", {}))  # a daemon method under its JSON-RPC name
    d.exchange(rpc(29, "resources/list"))
    d.exchange(rpc(30, "resources/templates/list"))
    d.exchange(rpc(31, "resources/read", {"uri": "skill://cuda-occupancy/SKILL.md"}))
    d.exchange(rpc(32, "resources/read", {"uri": "skill://project/nope/SKILL.md"}))
    d.exchange(rpc(33, "resources/read", {}))
    d.exchange(rpc(34, "resources/list", {"cursor": "c"}))
    r = d.exchange(rpc(35, "skills/list", {}))
    skills = (((r or {}).get("result") or {}).get("skills")) or []
    uris = [e.get("uri") for e in skills if isinstance(e, dict)]
    rid = 36
    for u in uris:
        if "/warp-shuffles/" in u or u.startswith("skill://user/"):
            d.exchange(rpc(rid, "skills/get", {"uri": u}))
            rid += 1
            base = u[:-len("SKILL.md")]
            d.exchange(rpc(rid, "resources/read", {"uri": u}))
            rid += 1
            d.exchange(rpc(rid, "resources/directory/read", {"uri": base.rstrip("/")}))
            rid += 1
    d.exchange(rpc(50, "resources/read", {
        "uri": "skill://project/.claude/skills/cuda-occupancy/references/limits.md"}))
    d.exchange(rpc(51, "resources/read", {
        "uri": "skill://project/.claude/skills/cuda-occupancy/../../../CMakeLists.txt"}))
    d.exchange(rpc(52, "skills/get", {"uri": "skill://project/nope/SKILL.md"}))
    d.exchange(rpc(53, "skills/list", {"cursor": "bogus"}))
    d.exchange(rpc(54, "prompts/list"))
    d.exchange(rpc(55, "resources/subscribe", {"uri": "skill://x/SKILL.md"}))
    d.exchange(rpc(56, "server/discover", {}))
    d.exchange('[{"jsonrpc":"2.0","id":57,"method":"ping"}]', response(None))  # no batches here
    d.exchange(rpc(58, "logging/setLevel", {"level": "loud"}))
    d.exchange(rpc(59, "logging/setLevel", {"level": "debug"}))
    d.exchange(notif("notifications/cancelled", {"requestId": 99}))
    d.exchange(rpc(60, "ping"))
    d.exchange(rpc(61, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}}))
    d.exchange('{"jsonrpc":"2.0","id":62,"method":"ping"', response(None))
    d.finish()
    # Older revisions negotiate; an unknown one gets the latest legacy revision.
    for v in ("2025-06-18", "2024-11-05", "2026-07-28", "1999-01-01"):
        d = s.daemon("mcp")
        d.exchange(rpc(1, "initialize", {"protocolVersion": v, "capabilities": {},
                                         "clientInfo": MCP_CLIENT}))
        d.exchange(tool(2, "find_skill", {"task": "warp", "waitMs": 60000}))
        d.exchange(tool(3, "status"))  # it names the negotiated revision
        d.finish()


def session_mcp_batch(s):
    """MCP 2025-03-26: batches, cancellation, progress."""
    d = s.daemon("mcp", "--mcp", "--test-methods")
    d.exchange('[{"jsonrpc":"2.0","id":1,"method":"ping"}]', response(None))  # before initialize
    mcp_init(d, "2025-03-26")
    d.exchange("[]", response(None))
    d.exchange("[1,2]", batch_response())
    d.exchange('[{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"sleep",'
               '"arguments":{"ms":300,"steps":1}}},{"jsonrpc":"2.0","id":"b","method":"ping"},'
               '{"jsonrpc":"2.0","method":"notifications/initialized"},'
               '{"jsonrpc":"2.0","id":"c","method":"nope"}]', batch_response())
    d.exchange('[{"jsonrpc":"2.0","method":"notifications/initialized"}]')  # no answer at all
    d.exchange('[{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"cursor":"q"}},'
               '{"jsonrpc":"2.0","id":"y"},{"jsonrpc":"2.0","id":"z","method":"tools/call",'
               '"params":{"name":"find_skill","arguments":{"task":"warp","waitMs":60000}}}]',
               batch_response())
    d.exchange(tool(2, "sleep", {"ms": 300, "steps": 3}, token="p"))
    d.exchange(tool(3, "sleep", {"ms": 0, "steps": 1, "fail": "boom"}))
    d.exchange(tool(4, "sleep", {"ms": -5}))
    d.exchange(tool(5, "sleep", {"ms": "x"}))
    # notifications/cancelled: no response for the request
    since = d.mark()
    d.send(tool(6, "sleep", {"ms": 120000, "steps": 2}, token="c6"))
    d.wait_for([progress("c6", message="started")], since)
    d.exchange(notif("notifications/cancelled", {"requestId": 6, "reason": "changed my mind"}))
    d.exchange(rpc(7, "ping"))
    d.exchange(rpc(8, "logging/setLevel", {"level": "info"}))
    d.exchange(notif("notifications/cancelled", {"requestId": 6}))
    d.exchange(rpc(9, "ping"))
    # A request in flight at EOF is allowed to finish.
    since = d.mark()
    d.send(tool(10, "sleep", {"ms": 300, "steps": 1}))
    d.close_stdin()
    d.wait_for([response(10)], since)
    d.finish()


MODERN = "2026-07-28"


def meta(version=MODERN):
    return {"_meta": {"io.modelcontextprotocol/protocolVersion": version,
                      "io.modelcontextprotocol/clientInfo": MCP_CLIENT,
                      "io.modelcontextprotocol/clientCapabilities": {}}}


def with_meta(params, version=MODERN):
    p = dict(params)
    p.update(meta(version))
    return p


def session_mcp_2026(s):
    """MCP 2026-07-28: stateless requests naming their revision in _meta."""
    d = s.daemon("mcp")
    d.exchange(rpc("p", "server/discover", meta()))
    d.exchange(rpc(1, "tools/list"))  # legacy without initialize: -32002
    d.exchange(rpc(2, "tools/list", meta()))
    d.exchange(rpc(3, "tools/call", with_meta({"name": "find_skill", "arguments": {
        "task": "cuda occupancy", "waitMs": 60000}})))
    d.exchange(rpc(4, "tools/call", with_meta({"name": "status", "arguments": {}})))
    r = d.exchange(rpc(5, "skills/list", meta()))
    skills = (((r or {}).get("result") or {}).get("skills")) or []
    for i, e in enumerate(skills):
        u = e.get("uri", "") if isinstance(e, dict) else ""
        if u.startswith("skill://project/"):
            d.exchange(rpc(100 + i, "skills/get", with_meta({"uri": u})))
    d.exchange(rpc(6, "resources/list", meta()))
    d.exchange(rpc(7, "resources/templates/list", meta()))
    d.exchange(rpc(8, "resources/read", with_meta({"uri": "skill://warp-shuffles/SKILL.md"})))
    d.exchange(rpc(9, "resources/read", with_meta({"uri": "skill://project/nope/SKILL.md"})))
    d.exchange(rpc(10, "tools/list", meta("2030-01-01")))  # -32022
    d.exchange(rpc(11, "ping", meta()))  # removed in 2026-07-28
    d.exchange(rpc(12, "initialize", with_meta({"protocolVersion": MODERN, "capabilities": {}})))
    d.exchange(rpc(13, "logging/setLevel", with_meta({"level": "debug"})))
    d.exchange(rpc(14, "tools/call", with_meta({"name": "validate_skill",
                                                "arguments": {"text": BAD_SKILL}})))
    d.exchange(rpc(15, "tools/call", with_meta({"name": "nope"})))
    d.exchange(rpc(16, "upskilld/status", meta()))
    d.exchange("[%s]" % json.dumps(rpc(17, "tools/list", meta()), separators=(",", ":")),
               response(None))
    # Then a legacy initialize on the same pipe; both eras answer side by side.
    mcp_init(d, "2025-11-25", rid=18)
    d.exchange(rpc(19, "tools/list", meta()))
    d.exchange(rpc(20, "resources/read", {"uri": "skill://project/nope/SKILL.md"}))
    d.exchange(rpc(21, "server/discover", {}))
    d.finish()


# ---- pipelined bursts ----


def burst_messages(s, mcp=False, n_pings=50):
    msgs = []
    rid = 1000
    for i in range(n_pings):
        msgs.append(rpc(rid, "ping"))
        rid += 1
        if i % 5 == 0:
            msgs.append(rpc(rid, "skills/lookup", {"task": ["cuda occupancy", "release notes",
                                                            "warp shuffle", "profiling python",
                                                            "zzz"][i // 5 % 5], "limit": 3}))
            rid += 1
        if i % 10 == 3:
            msgs.append(rpc(rid, "no/such/method"))
            rid += 1
            msgs.append(rpc(rid, "skills/lookup", {"task": ""}))
            rid += 1
            msgs.append(notif("no/such/notification"))
        if i % 10 == 7:  # over MCP skills/list and skills/get are the extension's: use the tools
            msgs.append(tool(rid, "list_skills", {"agent": "claude", "limit": 2}) if mcp else
                        rpc(rid, "skills/list", {"agent": "claude", "limit": 2}))
            rid += 1
            msgs.append(tool(rid, "get_skill", {"name": "warp-shuffles"}) if mcp else
                        rpc(rid, "skills/get", {"name": "warp-shuffles"}))
            rid += 1
        if i % 25 == 11:
            msgs.append(rpc(rid, "skills/validate", {"text": BAD_SKILL}))
            rid += 1
    return msgs


def session_pipelined_lsp(s):
    """A burst of pings, lookups and errors written at once, shutdown and exit behind it."""
    d = s.daemon("lsp", "--lsp")
    lsp_init(d, s, options={"warmKernels": False})
    d.exchange(rpc(1, "skills/lookup", {"task": "warp", "waitMs": 60000}))
    msgs = burst_messages(s) + [rpc(2, "shutdown"), notif("exit")]
    data = b""
    for m in msgs:
        text = json.dumps(m, separators=(",", ":"))
        s.line("> " + s.norm.paths(text))
        data += d.frame(text)
    s.line("# the %d messages above were written at once (%d bytes)" % (len(msgs), len(data)))
    since = d.mark()
    d.write(data)
    d.wait_for([response(2)], since)
    d.finish()


def session_pipelined_mcp(s):
    """The same burst over MCP line framing, ended by EOF."""
    d = s.daemon("mcp")
    mcp_init(d, "2025-11-25")
    d.exchange(rpc(1, "skills/lookup", {"task": "warp", "waitMs": 60000}))
    msgs = burst_messages(s, mcp=True)
    msgs += [tool(2, "find_skill", {"task": "release notes"}), tool(3, "status", {"x": 1})]
    data = b""
    for m in msgs:
        text = json.dumps(m, separators=(",", ":"))
        s.line("> " + s.norm.paths(text))
        data += d.frame(text)
    data += b'{"jsonrpc":"2.0","id":4,"method":"ping"}'  # the last message lacks its newline
    s.line('> [no newline] {"jsonrpc":"2.0","id":4,"method":"ping"}')
    s.line("# the %d messages above were written at once" % (len(msgs) + 1))
    since = d.mark()
    d.write(data)
    # EOF only once the rest is answered: the last line is handled at EOF, so closing at once
    # would race it against the lookups still queued.
    d.wait_for([response(m["id"]) for m in msgs if "id" in m], since)
    since = d.mark()
    d.close_stdin()
    d.wait_for([response(4)], since)
    d.finish()


def session_ctl(s):
    """upskillctl commands against the daemon under test ($UPSKILLD)."""
    s.ctl("--version")
    s.ctl("ping")
    s.ctl("--json", "ping")
    s.ctl("status")
    s.ctl("--json", "lookup", "warp shuffle", "--limit", "2")
    s.ctl("raw", "skills/lookup", '{"task":"cuda occupancy","waitMs":60000}')
    s.ctl("list")
    s.ctl("list", "--agent", "claude", "--scope", "project")
    s.ctl("lookup", "release notes", "--limit", "3")
    s.ctl("validate", ".claude/skills/cuda-occupancy/SKILL.md")
    s.ctl("validate", "drafts/Bad_Name/SKILL.md")
    s.ctl("validate", "--lenient", "drafts/Bad_Name/SKILL.md")
    s.ctl("install", "drafts/new-skill", "--agent", "claude")
    s.ctl("--json", "list", "--agent", "claude")
    s.ctl("install", "drafts/Bad_Name")
    s.ctl("remove", "new-skill", "--agent", "claude")
    s.ctl("remove", "new-skill")
    s.ctl("prompt")
    s.ctl("raw", "no/such/method")
    s.ctl("--json", "raw", "no/such/method")
    s.ctl("raw", "ping", "[1")
    s.ctl("nonsense")


SESSIONS = [
    ("lsp-lifecycle", session_lsp_lifecycle),
    ("lsp-skills", session_lsp_skills),
    ("lsp-kernel", session_lsp_kernel),
    ("lsp-editor", session_lsp_editor),
    ("lsp-cancel", session_lsp_cancel),
    ("mcp-legacy", session_mcp_legacy),
    ("mcp-batch", session_mcp_batch),
    ("mcp-2026", session_mcp_2026),
    ("pipelined-lsp", session_pipelined_lsp),
    ("pipelined-mcp", session_pipelined_mcp),
    ("ctl", session_ctl),
]


def meson_dirs(daemon):
    """The source and build directories of the meson build holding `daemon`, if any."""
    d = os.path.dirname(os.path.realpath(daemon))
    while d != "/":
        info = os.path.join(d, "meson-info", "meson-info.json")
        if os.path.exists(info):
            with open(info) as f:
                dirs = json.load(f).get("directories", {})
            return dirs.get("source"), dirs.get("build")
        d = os.path.dirname(d)
    return None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--daemon", required=True, help="the upskilld binary under test")
    ap.add_argument("--ctl", help="upskillctl (its sessions are skipped without it)")
    ap.add_argument("--out", required=True, help="directory for the transcripts (replaced)")
    ap.add_argument("--only", action="append", help="run only this session (repeatable)")
    ap.add_argument("--settle-ms", type=int, default=300,
                    help="how long the daemon must stay quiet before the next message")
    ap.add_argument("--timeout", type=int, default=120, help="seconds to wait for an answer")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    ap.add_argument("--src", help="source tree of the build (default: from meson-info)")
    ap.add_argument("--build", help="build tree (default: from meson-info)")
    ap.add_argument("--tmp", default=None, help="where the sessions' temporary roots go")
    ap.add_argument("--keep", action="store_true", help="keep the temporary roots")
    opts = ap.parse_args()
    opts.daemon = os.path.abspath(opts.daemon)
    if opts.ctl:
        opts.ctl = os.path.abspath(opts.ctl)
    src, build = meson_dirs(opts.daemon)
    opts.src = opts.src or src
    opts.build = opts.build or build
    if opts.cuda_path and not os.path.isdir(opts.cuda_path):
        opts.cuda_path = None
    os.makedirs(opts.out, exist_ok=True)
    for f in os.listdir(opts.out):
        if f.endswith(".txt"):
            os.unlink(os.path.join(opts.out, f))
    total_in = total_out = 0
    incomplete = []
    for name, fn in SESSIONS:
        if opts.only and name not in opts.only:
            continue
        if name == "ctl" and not opts.ctl:
            continue
        t0 = time.monotonic()
        s = Session(name, opts)
        s.line("# session %s: %s" % (name, fn.__doc__))
        try:
            fn(s)
        except Exception as e:  # a broken session still leaves its transcript
            s.line("# ERROR %s: %s" % (type(e).__name__, e))
        finally:
            s.close()
        with open(os.path.join(opts.out, name + ".txt"), "w") as f:
            f.write("\n".join(s.lines) + "\n")
        if any(ln.startswith(("# TIMEOUT", "# ERROR", "# EOF while")) for ln in s.lines):
            incomplete.append(name)
        n_in = sum(1 for ln in s.lines if ln.startswith(">") or ln.startswith("$"))
        n_out = sum(1 for ln in s.lines if ln.startswith("<") or ln.startswith("|"))
        total_in += n_in
        total_out += n_out
        print("%-14s %4d sent %4d received  %5.1fs" % (name, n_in, n_out,
                                                        time.monotonic() - t0), flush=True)
    print("total          %4d sent %4d received" % (total_in, total_out))
    if incomplete:  # the transcripts are written all the same: diff them to see where
        print("incomplete (a timeout, an error or an early EOF): " + " ".join(incomplete),
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
