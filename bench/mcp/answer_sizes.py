#!/usr/bin/env python3
"""What a model receives from each MCP tool, in bytes and estimated tokens, for a fixed project.

    answer_sizes.py UPSKILLD [--before OLD_UPSKILLD]

The project (made afresh in a temporary directory): 18 skills with descriptions as long as the
public anthropics/skills ones (~900 bytes), each installed for two agent directories
(.claude/skills and .agents/skills, which six agents read), the built-in library, and
tests/kernel/corpus/sgemm_tiled.cu as the kernel. Each daemon (`upskilld --mcp`, a private HOME)
is asked tools/list and a fixed set of calls; printed per line: the bytes of the text content a
model is shown (what MCP clients hand it) and that divided by 4 as a token estimate, the new
build beside --before (e.g. the main branch's build: `git worktree add /tmp/main main` and
scripts/build.sh there, or /work/main/build/daemon/upskilld).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "..", "..", "tests", "kernel", "corpus", "sgemm_tiled.cu")
TOPICS = ["pdf", "docx", "xlsx", "pptx", "canvas", "brand", "frontend", "webapp", "mcp", "slack",
          "algorithm", "theme", "artifact", "internal", "skill", "design", "poster", "gif"]
CALLS = [
    ("tools/list: names, descriptions, inputSchemas", None, None),
    ("list_skills {}", "list_skills", {"waitMs": 30000}),
    ("find_skill (a docx task)", "find_skill", {"task": "edit tracked changes in a docx report"}),
    ("find_skill (a restaurant booking)", "find_skill",
     {"task": "book a table for four at an italian restaurant"}),
    ("validate_kernel sgemm_tiled.cu", "validate_kernel", {"path": "k.cu"}),
    ("status", "status", {}),
]


def project(root):
    for i, t in enumerate(TOPICS):
        desc = (f"Toolkit for {t} work: create, edit and analyse {t} files with formatting, "
                f"formulas, charts and layout. Use when Claude needs to work with {t} documents "
                f"for: (1) creating new ones, (2) modifying or editing content, (3) working with "
                f"tracked changes, (4) adding comments, or any other {t} task. " + "x" * 600)
        for d in (".claude/skills", ".agents/skills"):
            p = os.path.join(root, d, f"{t}-{i:02d}")
            os.makedirs(p)
            with open(os.path.join(p, "SKILL.md"), "w") as f:
                f.write(f"---\nname: {t}-{i:02d}\ndescription: \"{desc}\"\n---\n# {t}\n\nSteps.\n")
    shutil.copy(KERNEL, os.path.join(root, "k.cu"))


class Mcp:
    def __init__(self, exe, cwd, home):
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"))
        for k in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
            env.pop(k, None)
        self.p = subprocess.Popen([exe, "--mcp"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.id = 0

    def call(self, method, params):
        self.id += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.id, "method": method,
                                       "params": params}) + "\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the daemon closed its output")
            m = json.loads(line)
            if m.get("id") == self.id:
                return m, len(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def measure(exe, proj, home):
    d = Mcp(exe, proj, home)
    init, _ = d.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "answer-sizes", "version": "1"}})
    d.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    out = {"instructions": len(init["result"].get("instructions", "").encode())}
    tools, _ = d.call("tools/list", {})
    out["tools"] = len(tools["result"]["tools"])
    for label, tool, args in CALLS:
        if tool is None:
            seen = [{k: t.get(k) for k in ("name", "description", "inputSchema")}
                    for t in tools["result"]["tools"]]
            out[label] = len(json.dumps(seen, separators=(",", ":")).encode())
            continue
        r, wire = d.call("tools/call", {"name": tool, "arguments": args})
        res = r.get("result") or {}
        text = sum(len(c.get("text", "").encode()) for c in res.get("content", []))
        out[label] = text if "result" in r else -1
    d.close()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upskilld")
    ap.add_argument("--before")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="upk-answer-sizes-")
    try:
        proj = os.path.join(tmp, "proj")
        project(proj)
        runs = []
        for i, exe in enumerate([a.before, a.upskilld]):
            if exe:
                home = os.path.join(tmp, f"home{i}")
                os.makedirs(home)
                runs.append((exe, measure(os.path.realpath(exe), proj, home)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{'what a model receives':48}" + "".join(f"{'before' if a.before and i == 0 else 'this build':>22}" for i in range(len(runs))))
    print(f"{'':48}" + f"{'bytes':>11}{'~tokens':>11}" * len(runs))
    for label, _, _ in CALLS:
        print(f"{label:48}" + "".join(f"{r[label]:11d}{r[label] // 4:11d}" for _, r in runs))
    print(f"{'tools listed':48}" + "".join(f"{r['tools']:22d}" for _, r in runs))
    print(f"{'server instructions (bytes)':48}" + "".join(f"{r['instructions']:22d}" for _, r in runs))


if __name__ == "__main__":
    sys.exit(main())
