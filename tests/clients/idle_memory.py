#!/usr/bin/env python3
"""The index's page cache is kept while a session asks and handed back once it goes quiet: after
a first index the lookups that follow read no page again (a cache handed back at once made each
of them slower: skills_service.c, release_due), and UPSKILLD_IDLE_RELEASE_MS after the last
skills work the daemon's resident memory drops by the cache; a lookup after that still answers
the same. An empty project's small cache goes at once. TAP."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from first_lookup import check, lsp, names, tap  # noqa: E402
from lazy_libs import idle  # noqa: E402

QUIET_MS = 2000


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(x.split()[1]) for x in f if x.startswith("VmRSS:")) / 1024


def make_tree(proj, n):
    words = ["alpha", "beta", "gamma", "delta", "kappa", "sigma", "omega", "theta"]
    for k in range(n):
        d = os.path.join(proj, ".claude", "skills", f"tool-{k:04d}")
        os.makedirs(d)
        body = "\n".join(f"## Step {i}\n\nUse the {words[(k + i) % 8]} plan for job{k}x{i} "
                         f"and record part{i * k % 997}." for i in range(40))
        with open(os.path.join(d, "SKILL.md"), "w") as f:
            f.write(f"---\nname: tool-{k:04d}\ndescription: Handles zork{k:04d} jobs.\n---\n"
                    f"{body}\n")


def run(tmp):
    proj = os.path.join(tmp, "proj")
    make_tree(proj, 1500)
    env = dict(os.environ, HOME=os.path.join(tmp, "home"), XDG_CACHE_HOME=os.path.join(tmp, "cache"),
               XDG_CONFIG_HOME=os.path.join(tmp, "config"), XDG_STATE_HOME=os.path.join(tmp, "state"),
               UPSKILLD_IDLE_RELEASE_MS=str(QUIET_MS))
    os.makedirs(env["HOME"])
    task = {"task": "zork0042", "limit": 3, "waitMs": 120000}
    d, _ = lsp(proj, env)
    first = (d.call("skills/lookup", task) or {}).get("result", {})
    check("the first lookup finds the skill", names(first)[:1] == ["tool-0042"], first)
    check("the first index settles", idle(d, 120))
    settled = (d.call("skills/lookup", task) or {}).get("result", {})
    for k in range(20):  # a session's burst: none of it reads the index's pages again
        d.call("skills/lookup", dict(task, task=f"the job{k}x3 with the kappa plan"))
    busy = rss_mib(d.p.pid)
    time.sleep(QUIET_MS / 1000 + 1.5)
    quiet = rss_mib(d.p.pid)
    # The sanitizers' allocator quarantines what is freed and trims nothing: no drop to see there.
    if os.environ.get("UPK_SANITIZE", "none") in ("", "none"):
        check("quiet for UPSKILLD_IDLE_RELEASE_MS, the daemon hands its page cache back "
              "(1 MiB or more)", busy - quiet >= 1, (busy, quiet))
    again = (d.call("skills/lookup", task) or {}).get("result", {})
    check("a lookup afterwards answers as one before it", again == settled, (again, settled))
    d.close("the session")


def main():
    return tap(run, None if os.path.exists("/proc/self/status")
               else "no /proc/<pid>/status to read the resident memory")


if __name__ == "__main__":
    sys.exit(main())
