#!/usr/bin/env python3
"""`meson install --destdir` of this build, then the staged tree moved elsewhere and used with no
source or build tree in reach: every file a user's install needs is where its tool looks
(binaries, the worker under libexec, man pages, bash/zsh/fish completions, the Neovim start
package, the skills library, the .vsix when this build made one), and the moved programs answer
from their own place: --version, an MCP session whose find_skill is answered from the moved
library, `upskillctl validate` of a skill. TAP."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

daemon = os.environ["UPSKILLD"]
build = os.path.dirname(os.path.dirname(os.path.abspath(daemon)))
n = failed = 0


def check(name, ok, detail=""):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    if not ok and detail:
        print("\n".join("# " + l for l in str(detail).splitlines()[:20]))


def options():
    out = subprocess.run(["meson", "introspect", "--buildoptions", build], capture_output=True, text=True,
                         check=True).stdout
    return {o["name"]: o["value"] for o in json.loads(out)}


def mcp(cmd, env, calls):
    """One MCP stdio session: initialize, then each (method, params); the answers by id."""
    msgs = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "install-staged", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    msgs += [{"jsonrpc": "2.0", "id": i + 1, "method": m, "params": p} for i, (m, p) in enumerate(calls)]
    r = subprocess.run(cmd, input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True,
                       text=True, env=env, timeout=60)
    return {m.get("id"): m for m in map(json.loads, r.stdout.splitlines()) if "id" in m}, r.stderr


def main():
    o = options()
    tmp = tempfile.mkdtemp(prefix="upk-stage-")
    try:
        r = subprocess.run(["meson", "install", "-C", build, "--destdir", f"{tmp}/stage", "--no-rebuild",
                            "--quiet"], capture_output=True, text=True)
        check("meson install --destdir stages the build", r.returncode == 0, r.stdout + r.stderr)
        if r.returncode:
            return
        # The prefix moved: nothing may be found through the configured prefix or the build tree.
        moved = f"{tmp}/moved"
        shutil.move(f"{tmp}/stage{o['prefix']}", moved)
        want = [f"{o['bindir']}/upskilld", f"{o['bindir']}/upskillctl", f"{o['libexecdir']}/upskilld/upskilld-worker",
                f"{o['mandir']}/man1/upskilld.1", f"{o['mandir']}/man1/upskillctl.1",
                f"{o['datadir']}/bash-completion/completions/upskillctl",
                f"{o['datadir']}/zsh/site-functions/_upskillctl",
                f"{o['datadir']}/fish/vendor_completions.d/upskillctl.fish",
                f"{o['datadir']}/nvim/site/pack/upskilld/start/upskilld/lua/upskilld/init.lua",
                f"{o['datadir']}/upskilld/library"]
        vsix = [f for f in os.listdir(f"{build}/clients") if f.endswith(".vsix")]
        want += [f"{o['datadir']}/upskilld/{f}" for f in vsix]
        gone = [w for w in want if not os.path.exists(f"{moved}/{w}")]
        check(f"the {len(want)} installed places are there" + (" (.vsix included)" if vsix else
              " (no .vsix: this build has none, -Dvsix)"), not gone, "missing: " + ", ".join(gone))
        home = f"{tmp}/home"
        os.makedirs(home)
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": home, "LANG": "C.UTF-8"}
        bin_ = f"{moved}/{o['bindir']}"
        r = subprocess.run([f"{bin_}/upskilld", "--version"], capture_output=True, text=True, env=env)
        check("the moved upskilld --version", r.returncode == 0 and "upskilld" in r.stdout, r.stdout + r.stderr)
        got, err = mcp([f"{bin_}/upskilld", "--mcp"], env,
                       [("tools/call", {"name": "find_skill", "arguments": {"task": "write a CUDA kernel for H100"}})])
        text = json.dumps(got.get(1, {}))
        check("find_skill answered from the moved library", f"{moved}/{o['datadir']}/upskilld/library" in text
              and got.get(1, {}).get("result", {}).get("isError") is not True, text[:600] + err[-600:])
        lib = f"{moved}/{o['datadir']}/upskilld/library"
        skill = next(os.path.join(lib, d) for d in sorted(os.listdir(lib)) if os.path.isdir(os.path.join(lib, d)))
        r = subprocess.run([f"{bin_}/upskillctl", "validate", skill], capture_output=True, text=True, env=env,
                           timeout=60)
        check("the moved upskillctl validate (its daemon found beside it)", r.returncode == 0,
              r.stdout + r.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
    print(f"1..{n}")
    sys.exit(1 if failed else 0)
