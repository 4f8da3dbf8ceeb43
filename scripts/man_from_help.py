#!/usr/bin/env python3
"""Write a roff man page for a program from its own --help, so the page never drifts from it.

    man_from_help.py PROGRAM NAME "one-line summary"  > NAME.1

--help's first line is the usage, the second the description; every line that starts with
two spaces and '-' opens an option, and more-indented lines continue it.
"""
import subprocess
import sys


def esc(s):
    return s.replace("\\", "\\\\").replace("-", "\\-").replace("'", "\\(aq")


def main(prog, name, summary):
    lines = subprocess.run([prog, "--help"], capture_output=True, text=True, check=True).stdout.splitlines()
    usage, desc, rest = lines[0], lines[1], lines[2:]
    out = [f'.TH {name.upper()} 1 "" "{name}" "User Commands"', ".SH NAME", f"{esc(name)} \\- {esc(summary)}",
           ".SH SYNOPSIS", esc(usage.removeprefix("usage: ")), ".SH DESCRIPTION", esc(desc), ".SH OPTIONS"]
    for line in rest:
        if line.startswith("  -"):
            opt, _, text = line.strip().partition("  ")
            out += [".TP", f"\\fB{esc(opt)}\\fR", esc(text.strip())]
        elif line.strip():
            out.append(esc(line.strip()))
    out += [".SH SEE ALSO", "upskillctl(1)"]
    print("\n".join(out))


if __name__ == "__main__":
    main(*sys.argv[1:4])
