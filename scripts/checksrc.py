#!/usr/bin/env python3
"""The banned-calls check (after curl's checksrc, its BANNEDFUNC rule).

Reads every .c and .h file of the production parts (common, protocol, gpu, models,
skills, report, daemon, clients; not tests/, bench/ or the skills library's content)
with comments, string and character literals blanked out, and prints one line per
call of a banned function:

    FILE:LINE:COL: NAME() is banned: WHY; use INSTEAD

A call is the name followed by `(`; a member (`x.gets(`, `p->gets(`) or a longer
identifier (`upk_atoi(`) is not one. Prints the totals to stderr and exits 1 when
anything was found, 0 when the tree is clean.

With --long it also lists every function longer than MAX_FUNCTION_LINES (the rule of
CONTRIBUTING.md), one line each, `FILE:LINE: NAME() is N lines (at most 60)`, and their count
on stderr. In the directories of LONG_ENFORCED such a function fails the check (exit 1);
elsewhere the list is a report and does not change the exit status.
Usage: scripts/checksrc.py [--long] [ROOT]   (default: the repo)"""
import os
import re
import sys

PARTS = ("common", "protocol", "gpu", "models", "skills", "report", "daemon", "clients")
SKIP_DIRS = {"node_modules", os.path.join("skills", "library")}

UNBOUNDED = "writes with no bound"
NO_ERROR = "cannot report a bad number"
STATIC = "returns a static buffer (not thread-safe)"
RACE = "the name can be taken before it is used"
BANNED = {
    "sprintf": (UNBOUNDED, "snprintf, upk_buf_printf or upk_xasprintf"),
    "vsprintf": (UNBOUNDED, "vsnprintf or upk_xvasprintf"),
    "strcpy": (UNBOUNDED, "memcpy of a known length, snprintf or upk_xstrdup"),
    "stpcpy": (UNBOUNDED, "memcpy of a known length"),
    "strcat": (UNBOUNDED + " and rescans the string", "upk_buf_puts (common/dynbuf.h)"),
    "strncat": ("its bound is what is left, not the size", "upk_buf_append (common/dynbuf.h)"),
    "strncpy": ("leaves no NUL when it truncates", "memcpy of a known length or snprintf"),
    "gets": (UNBOUNDED, "fgets or getline"),
    "atoi": (NO_ERROR, "strtol with an end check"),
    "atol": (NO_ERROR, "strtol with an end check"),
    "atoll": (NO_ERROR, "strtoll with an end check"),
    "atof": (NO_ERROR, "strtod with an end check"),
    "strtok": ("keeps hidden state between calls", "strtok_r or strsep"),
    "gmtime": (STATIC, "gmtime_r"),
    "localtime": (STATIC, "localtime_r"),
    "ctime": (STATIC, "strftime with localtime_r"),
    "asctime": (STATIC, "strftime"),
    "tmpnam": (RACE, "mkstemp or mkdtemp"),
    "tempnam": (RACE, "mkstemp or mkdtemp"),
    "mktemp": (RACE, "mkstemp or mkdtemp"),
}
CALL = re.compile(r"(?<![\w.>])(" + "|".join(sorted(BANNED)) + r")\s*\(")
# A comment, a string or a character literal (escapes included), or anything else.
TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank(m):
    """The token with every character but newlines turned into a space (lines and columns
    stay where they were)."""
    return re.sub(r"[^\n]", " ", m.group(0))


MAX_FUNCTION_LINES = 60
# Where a function over MAX_FUNCTION_LINES fails `--long` rather than being reported: the parts
# brought under the rule so far (issue 48). Extend it as a part is brought under the rule.
LONG_ENFORCED = ("daemon", "gpu", "clients", "common", "protocol", "models", "report", "skills")


def long_enforced(line):
    """Whether a line of the --long list is in a directory of LONG_ENFORCED."""
    return any(line.startswith(d + "/") for d in LONG_ENFORCED)
# A preprocessor line with its continuations: its braces are a macro's, not a function's.
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
# NAME(params) just before the `{`; a parameter may hold one level of parentheses (callbacks).
SIGNATURE = re.compile(r"(\w+)\s*\([^()=]*(?:\([^()]*\)[^()=]*)*\)\s*$")


def long_functions(code, rel, out):
    """Functions (a `{` at depth 0 after `NAME(...)`) of more than MAX_FUNCTION_LINES lines,
    from the line of the `{` to the line of its `}`."""
    code = DIRECTIVE.sub(blank, code)
    depth, start, name, head, found = 0, 0, None, 0, 0
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                m = SIGNATURE.search(code[head:i])
                name, start = (m.group(1) if m else None), code.count("\n", 0, i) + 1
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0:
                head = i + 1
                lines = code.count("\n", 0, i) + 2 - start
                if name and lines > MAX_FUNCTION_LINES:
                    out.append(f"{rel}:{start}: {name}() is {lines} lines "
                               f"(at most {MAX_FUNCTION_LINES})")
                    found += 1
        elif c == ";" and depth == 0:
            head = i + 1
    return found


def check_file(path, rel, out, long_out=None):
    with open(path, encoding="utf-8", errors="replace") as f:
        code = TOKEN.sub(blank, f.read())
    if long_out is not None:
        long_functions(code, rel, long_out)
    found = 0
    for no, line in enumerate(code.split("\n"), 1):
        for m in CALL.finditer(line):
            why, instead = BANNED[m.group(1)]
            out.append(f"{rel}:{no}:{m.start(1) + 1}: {m.group(1)}() is banned: {why}; "
                       f"use {instead}")
            found += 1
    return found


def sources(root):
    for part in PARTS:
        top = os.path.join(root, part)
        for d, dirs, files in os.walk(top):
            rel_d = os.path.relpath(d, root)
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS
                             and os.path.join(rel_d, x) not in SKIP_DIRS)
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    yield os.path.join(d, name), os.path.join(rel_d, name)


def main():
    args = sys.argv[1:]
    long_out = [] if "--long" in args else None
    args = [a for a in args if a != "--long"]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    out, files, found = [], 0, 0
    for path, rel in sources(root):
        files += 1
        found += check_file(path, rel, out, long_out)
    for line in out + (long_out or []):
        print(line)
    enforced = sum(map(long_enforced, long_out or []))
    if long_out is not None:
        print(f"checksrc: {len(long_out)} functions over {MAX_FUNCTION_LINES} lines, "
              f"{enforced} where the rule is enforced ({', '.join(LONG_ENFORCED)})",
              file=sys.stderr)
    print(f"checksrc: {files} files, {found} banned call{'s' if found != 1 else ''}",
          file=sys.stderr)
    return 1 if found or enforced or not files else 0


if __name__ == "__main__":
    sys.exit(main())
