#!/usr/bin/env python3
"""Every hint upskillctl can print names a command a person can run from the command line.

Walks the message text of the tree (C string literals of the daemon, the compiler service, the
skills code, the client, and docs/diagnostics.md): each `upskillctl COMMAND --option` it names
must be a command of `upskillctl --help` and an option of `upskillctl COMMAND --help`. A hint the
daemon words for a request or for its own command line (`allowRisky`, `upskilld
--allow-kernel-option=...`) reaches the CLI rewritten by the table in clients/voice.c: each
entry's daemon phrase must still be written somewhere (else the rewrite is dead and the hint
reaches people in the protocol's words), and each `upskilld --flag` hint outside that table must
be one only an agent (MCP) reads. Reads the tree and runs `upskillctl --help`; emits TAP."""
import os
import re
import subprocess
import sys

ROOT = os.environ.get("UPK_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CTL = os.environ["UPSKILLCTL"]
DIRS = ["clients", "daemon", "skills", "gpu", "common", "models", "protocol"]
# upskilld flags named only in refusals of an agent's call (MCP), where the user registers the
# server: `claude mcp add upskilld -- upskilld --mcp --agent-path=...`.
AGENT_ONLY = {"daemon/core/guard.c", "daemon/eval/eval_inputs.c"}
# Words after "upskillctl" in prose that are not commands.
PROSE = {"is", "starts", "speaking", "prints", "can", "for", "upskillctl", "passes", "spawns",
         "gives", "reaches", "and", "or", "the", "runs", "does", "with", "itself", "has"}

n = 0
failed = 0


def check(name, ok, why=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + f" {n} - {name}")
    if not ok:
        failed += 1
        for line in str(why).splitlines()[:40]:
            print("# " + line)


def options_of(cmd):
    text = subprocess.run([CTL, cmd, "--help"] if cmd else [CTL, "--help"], capture_output=True,
                          text=True, check=True).stdout
    return set(re.findall(r"^  (?:-[A-Za-z], )?(--[a-z][a-z-]*)", text, re.M)), text


def strings(path):
    """The text a person may read: C string literals (adjacent ones joined), or a doc's lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(".md"):
        return text.splitlines()
    text = re.sub(r"/\*.*?\*/|^\s*//[^\n]*", "", text, flags=re.S | re.M)
    out = []
    for run in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', text):
        out.append("".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', run.group(0))))
    return out


def sources():
    for d in DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                if f.endswith(".c"):
                    yield os.path.join(dirpath, f)
    yield os.path.join(ROOT, "docs", "diagnostics.md")


def main():
    globals_, usage = options_of(None)
    commands = re.findall(r"^  ([a-z][a-z-]*)\b", usage.split("\ncommands:\n")[1].split("\n\n")[0],
                          re.M)
    opts = {c: options_of(c)[0] | globals_ for c in commands}
    check("the command table lists the commands", len(commands) >= 18, commands)

    hints, bad = 0, []
    daemon_flags = []
    for path in sources():
        rel = os.path.relpath(path, ROOT)
        for s in strings(path):
            for m in re.finditer(r"upskillctl (?:%s )?([a-z][a-z-]*)((?:[^.;,)`'\"]|\.[a-z/])*)", s):
                cmd, tail = m.group(1), m.group(2)
                if cmd in PROSE or s[max(0, m.start() - 2):m.start()] == "$ ":
                    continue  # prose, or what a person typed in an example (typos included)
                hints += 1
                if cmd not in commands:
                    bad.append(f"{rel}: 'upskillctl {cmd}': no such command")
                    continue
                for o in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", tail):
                    if o not in opts[cmd]:
                        bad.append(f"{rel}: 'upskillctl {cmd} {o}': no such option")
            if rel not in ("daemon/main.c", "clients/commands.c") and not rel.endswith(".md"):
                for m in re.finditer(r"upskilld (--[a-z][a-z-]*=?)", s):
                    daemon_flags.append((rel, m.group(1), s))
    check(f"the {hints} upskillctl commands and options that messages name exist", hints > 20 and
          not bad, "\n".join(bad))

    with open(os.path.join(ROOT, "clients", "voice.c"), encoding="utf-8") as f:
        table = f.read().split("WORDS[] = {", 1)[1].split("};", 1)[0]
    pairs = re.findall(r'\{\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\s*\}', table)
    check("clients/voice.c rewrites some daemon hints", len(pairs) >= 4, table)
    written = "\n".join("\n".join(strings(p)) for p in sources()
                        if not p.endswith(("clients/voice.c", ".md")))
    stale = [d for d, _ in pairs if d not in written]
    check("each rewritten daemon phrase is still what the daemon writes", not stale, stale)
    wrong = []
    for _, cli in pairs:
        m = re.search(r"upskillctl ([a-z-]+)", cli)
        for o in re.findall(r"(--[a-z][a-z-]*)", cli):
            if m and o not in opts.get(m.group(1), set()):
                wrong.append(cli)
    check("each rewrite names an option of the command line", not wrong, wrong)
    uncovered = [f"{rel}: upskilld {flag}" for rel, flag, s in daemon_flags
                 if rel not in AGENT_ONLY and not any(d in s or s in d for d, _ in pairs)
                 and "upskilld " + flag not in "".join(d for d, _ in pairs)]
    check("an `upskilld --flag` hint reaches the CLI rewritten, or only agents read it",
          not uncovered, "\n".join(uncovered))
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
