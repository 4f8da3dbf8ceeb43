#!/usr/bin/env python3
"""Agent runs (issue 36): wall time and peak memory per agent run and for 8 at once, through
upskilld (`upskillctl eval -m agent:...`) beside the reference, the same CLI run by hand with
the same command line and environment, in the same invocation. Both talk to the scripted agent
server on loopback (tests/agents/agent_server.mjs), so the model's time is the same small
constant and what is measured is the agent CLI and upskilld's share around it.

Memory is the peak of the summed RSS of the whole process tree (the daemon, its agents and
their children; or the hand-run agents), sampled every 10 ms from /proc.

Usage: bench/agents/bench.py [BUILD_DIR] [--agent claude-code|codex] [--runs N]
Needs tests/agents/setup.sh (the CLIs) and node. Targets: upskilld's time per run within
1.25x of the hand run plus 0.5 s, and 8 at once no slower than 8 hand runs at once x 1.25.
"""
import json, os, shutil, subprocess, sys, tempfile, threading, time

args = [a for a in sys.argv[1:] if not a.startswith("--")]
build = args[0] if args else "build"
agent = "claude-code"
runs = 3
for i, a in enumerate(sys.argv):
    if a == "--agent":
        agent = sys.argv[i + 1]
    if a == "--runs":
        runs = int(sys.argv[i + 1])
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
cache = os.environ.get("UPK_NPM_CACHE", os.path.join(repo, ".cache/npm"))
bindir = os.path.join(cache, "agents/node_modules/.bin")
ctl = os.path.join(repo, build, "clients/upskillctl")
if not os.path.exists(os.path.join(bindir, "claude")):
    sys.exit("bench/agents: the agent CLIs are missing: run tests/agents/setup.sh")

SKILL = """---
name: house-rules
description: The house rules for GPU kernels in this repository. Use when asked about house rules.
---
# House rules

ANSWER: use warp shuffles
"""
PROMPT = "What is the house rule for reductions? Check house-rules and write out.txt"


def tree_rss(root_pid):
    """Summed RSS (KiB) of root_pid and all its descendants."""
    kids, rss = {}, {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{p}/statm") as f:
                rss[int(p)] = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
            kids.setdefault(ppid, []).append(int(p))
        except (OSError, ValueError, IndexError):
            pass
    total, todo = 0, [root_pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += kids.get(p, [])
    return total


def measure(popen_fn):
    """Run popen_fn() -> list of Popen; wall time until all exit and the peak tree RSS."""
    t0 = time.monotonic()
    procs = popen_fn()
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], sum(tree_rss(p.pid) for p in procs))
            time.sleep(0.01)

    th = threading.Thread(target=sample)
    th.start()
    for p in procs:
        p.wait()
    done.set()
    th.join()
    return time.monotonic() - t0, peak[0], procs


def main():
    box = tempfile.mkdtemp(prefix="upk-agent-bench-")
    srv = subprocess.Popen(["node", os.path.join(repo, "tests/agents/agent_server.mjs")],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = srv.stdout.readline().strip()
    try:
        for d in ["proj/skills/house-rules", "home/.codex", "tmp", "state"]:
            os.makedirs(os.path.join(box, d), exist_ok=True)
        open(os.path.join(box, "proj/skills/house-rules/SKILL.md"), "w").write(SKILL)
        open(os.path.join(box, "home/.codex/config.toml"), "w").write(
            f'model = "gpt-5.5"\nmodel_provider = "mock"\napproval_policy = "never"\n'
            f'[model_providers.mock]\nname = "mock"\nbase_url = "{url}/v1"\nwire_api = "responses"\n'
            f'experimental_bearer_token = "sk-dummy"\n[features]\nplugins = false\n'
            f'remote_plugin = false\napps = false\ntool_suggest = false\n[analytics]\nenabled = false\n')
        env = dict(os.environ, PATH=f"{bindir}:/usr/local/bin:/usr/bin:/bin",
                   HOME=os.path.join(box, "home"), TMPDIR=os.path.join(box, "tmp"),
                   XDG_STATE_HOME=os.path.join(box, "state"), ANTHROPIC_BASE_URL=url,
                   ANTHROPIC_API_KEY="sk-dummy", UPSKILLD_WORKER_SERVER_IDLE="0")
        proj = os.path.join(box, "proj")

        def cases(n):
            path = os.path.join(proj, f"cases{n}.json")
            json.dump({"cases": [{"input": PROMPT, "expected": {"contains": ["warp shuffles"]}}] * n},
                      open(path, "w"))
            return path

        def via_upskilld(n, parallel):
            return lambda: [subprocess.Popen(
                [ctl, "--json", "eval", "skills/house-rules", "-m", f"agent:{agent}", "--tests",
                 cases(n), "--no-baseline", "--max-parallel", str(parallel)],
                cwd=proj, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]

        def by_hand(n):
            def start():
                out = []
                for i in range(n):
                    ws = os.path.join(box, "hand", f"{time.monotonic_ns()}-{i}")
                    sk = ".claude/skills" if agent == "claude-code" else ".agents/skills"
                    os.makedirs(os.path.join(ws, sk, "house-rules"))
                    open(os.path.join(ws, sk, "house-rules/SKILL.md"), "w").write(SKILL)
                    argv = (["claude", "-p", PROMPT, "--output-format", "stream-json", "--verbose",
                             "--permission-mode", "acceptEdits"] if agent == "claude-code" else
                            ["codex", "exec", "--json", "--skip-git-repo-check", "--sandbox",
                             "workspace-write", "-c",
                             "sandbox_workspace_write.exclude_slash_tmp=true", "-C", ws, PROMPT])
                    out.append(subprocess.Popen(argv, cwd=ws, env=env, stdin=subprocess.DEVNULL,
                                                stdout=subprocess.DEVNULL,
                                                stderr=subprocess.DEVNULL))
                return out
            return start

        rows = []
        for label, n, par in [("1 run", 1, 1), ("8 at once", 8, 8)]:
            u_t, u_m, h_t, h_m = [], [], [], []
            for _ in range(runs):
                t, m, _p = measure(via_upskilld(n, par))
                u_t.append(t), u_m.append(m)
                t, m, _p = measure(by_hand(n))
                h_t.append(t), h_m.append(m)
            rows.append((label, min(u_t), max(u_m), min(h_t), max(h_m)))
        print(f"agent:{agent}, {runs} tries each (best time, worst peak); scripted model on loopback")
        print(f"{'':10} {'upskilld s':>11} {'by hand s':>10} {'ratio':>6}   "
              f"{'upskilld MiB':>12} {'by hand MiB':>11} {'ratio':>6}")
        ok = True
        for label, ut, um, ht, hm in rows:
            print(f"{label:10} {ut:11.2f} {ht:10.2f} {ut / ht:6.2f}   {um / 1024:12.0f} "
                  f"{hm / 1024:11.0f} {um / hm:6.2f}")
            ok &= ut <= ht * 1.25 + 0.5
        print("per run through upskilld: %.2f s alone, %.2f s each when 8 run at once"
              % (rows[0][1], rows[1][1] / 8))
        print("targets met" if ok else "TARGET MISSED: upskilld's time over 1.25x the hand run + 0.5 s")
        return 0 if ok else 1
    finally:
        srv.terminate()
        shutil.rmtree(box, ignore_errors=True)


sys.exit(main())
