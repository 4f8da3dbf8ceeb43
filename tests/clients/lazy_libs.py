#!/usr/bin/env python3
"""An idle daemon maps only what it used: libcmark (a skill's Markdown), libyara (the audit) and
libcurl (a model) are opened by the first request that needs them (skills/cmark_lazy.c,
skills/audit/yara_lazy.c, models/curl_lazy.c), never before main. A daemon whose skills an
earlier session indexed maps none of them once idle, and answers a lookup from the index; the
first Markdown it reads opens libcmark and reads it right (a word only a heading has finds its
skill; a link only the Markdown parser sees is checked). Without libcmark (the cmark.load
fault), validate says skill/markdown-unread with the package to install and the audit refuses
(audit/rules): no body is passed over as empty. TAP."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from first_lookup import CTL, check, lsp, names, tap  # noqa: E402  (the same daemon driver)

LAZY = ("libcmark", "libyara", "libcurl")


def skill(proj, name, heading, extra=""):
    d = os.path.join(proj, ".claude", "skills", name)
    os.makedirs(d)
    with open(os.path.join(d, "SKILL.md"), "w") as f:
        f.write(f"---\nname: {name}\ndescription: Handles {name} requests for the team.\n---\n"
                f"Steps to follow.\n\n## {heading}\n\nMore steps.\n{extra}")
    return d


def mapped(pid):
    with open(f"/proc/{pid}/maps") as f:
        text = f.read()
    return [lib for lib in LAZY if f"/{lib}." in text or f"/{lib}-" in text]


def idle(d, timeout=60):
    """Wait until the skills service has nothing left to do (scan, merge, store fill)."""
    end = time.time() + timeout
    while time.time() < end:
        sk = (d.call("upskilld/status", {}) or {}).get("result", {}).get("skills", {})
        if sk and not (sk.get("scanning") or sk.get("merging") or sk.get("filling")):
            return True
        time.sleep(0.05)
    return False


def run(tmp):
    proj = os.path.join(tmp, "proj")
    skill(proj, "frob-tool", "Quuxify the frobnicator")
    skill(proj, "other-tool", "Plain steps")
    env = dict(os.environ, HOME=os.path.join(tmp, "home"), XDG_CACHE_HOME=os.path.join(tmp, "cache"),
               XDG_CONFIG_HOME=os.path.join(tmp, "config"), XDG_STATE_HOME=os.path.join(tmp, "state"))
    os.makedirs(env["HOME"])
    task = {"task": "quuxify", "limit": 3, "waitMs": 60000}

    # A first session indexes the skills: it parsed their Markdown (the heading's word finds it).
    d, _ = lsp(proj, env)
    r = (d.call("skills/lookup", task) or {}).get("result", {})
    check("a first session finds a skill by a word only its heading has",
          names(r)[:1] == ["frob-tool"] and "headings" in r["results"][0].get("why", ""), r)
    d.close("the first session")

    # The next session finds the index as it was left: once idle, none of the three is mapped.
    d, _ = lsp(proj, env)
    check("a later session goes idle", idle(d))
    time.sleep(0.3)
    check("idle, with its skills indexed before, the daemon maps no libcmark, libyara, libcurl",
          mapped(d.p.pid) == [], mapped(d.p.pid))
    r = (d.call("skills/lookup", task) or {}).get("result", {})
    check("its lookup answers from the index, still without them",
          names(r)[:1] == ["frob-tool"] and mapped(d.p.pid) == [], (r, mapped(d.p.pid)))

    # The first Markdown it reads opens libcmark, and reads it: a link only the parser sees.
    new = skill(proj, "new-tool", "Zwiebel steps", "\nSee [the guide](missing-guide.md).\n")
    r = d.call("skills/validate", {"path": new}) or {}
    codes = [x.get("code") for x in r.get("result", {}).get("diagnostics", [])]
    check("validating a skill opens libcmark and checks its Markdown link (skill/broken-reference)",
          "libcmark" in mapped(d.p.pid) and "skill/broken-reference" in codes, (r, mapped(d.p.pid)))
    d.close("the later session")

    # Without libcmark (as if not installed: the cmark.load fault), nothing passes a body over as
    # empty: validate says so with the command to install it, the audit refuses to vouch for a
    # skill, and the daemon answers the next request.
    broken = dict(env, UPSKILLD_FAULT="cmark.load:1:EIO")
    d, _ = lsp(proj, broken)
    r = d.call("skills/validate", {"path": new}) or {}
    diags = r.get("result", {}).get("diagnostics", [])
    unread = [x for x in diags if x.get("code") == "skill/markdown-unread"]
    check("without libcmark, validate reports skill/markdown-unread naming the package to install",
          len(unread) == 1 and unread[0].get("severity") in (1, "error") and
          unread[0]["message"].startswith("The body was not read as Markdown: libcmark could "
                                          "not be loaded: ") and
          "sudo apt install libcmark0.30.2" in unread[0]["message"], diags)
    r = (d.call("skills/lookup", {"task": "quuxify", "limit": 3}) or {}).get("result", {})
    check("... and the daemon answers the next request", "results" in r, r)
    d.close("the session without libcmark")
    p = subprocess.run([CTL, "audit", new], cwd=proj, env=broken, capture_output=True, text=True,
                       timeout=120)
    check("without libcmark, upskillctl audit exits 1: the audit could not start [audit/rules]",
          p.returncode == 1 and "the audit could not start (libcmark could not be loaded" in p.stdout
          and "[audit/rules]" in p.stdout, (p.returncode, p.stdout, p.stderr[-500:]))


def main():
    return tap(run, None if os.path.exists("/proc/self/maps")
               else "no /proc/<pid>/maps to read what the daemon mapped")


if __name__ == "__main__":
    sys.exit(main())
