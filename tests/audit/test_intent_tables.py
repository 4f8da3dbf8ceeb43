#!/usr/bin/env python3
"""The intent layer's rules files and their checker (skills/audit/rules/intent_tables.py): each
real file goes through, and each kind of mistake fails naming the table and the entry. TAP."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "skills/audit/rules/intent_tables.py")
RULES = os.path.join(ROOT, "skills/audit/rules/intent")

CASES = [  # (kind, YAML, what the error must say)
    ("words", "A:\n  about: x\n  read: word\n  words: [a, b, a]\n", "A: listed twice: a"),
    ("words", "A:\n  about: x\n  read: regex\n  words: [a]\n", "A: read: one of"),
    ("words", "A:\n  about: x\n  read: word\n  words: [Abc]\n", "A: words: a list of non-empty lowercase"),
    ("words", "A:\n  about: x\n  read: alternation\n  words: [a b]\n", "A: an alternation's words"),
    ("words", "a:\n  about: x\n  read: word\n  words: [a]\n", "a: a word list: an upper-case C name"),
    ("words", "A:\n  read: word\n  words: [a]\n", "A: about, read and words"),
    ("patterns", "T:\n  patterns:\n    - {id: t-1, match: a, negation: none}\n"
                 "    - {id: t-1, match: b, negation: none}\n", "T: pattern 't-1': an id like"),
    ("patterns", "T:\n  patterns:\n    - {id: t-1, match: a, negation: maybe}\n", "t-1: negation: one of"),
    ("severity", "- {id: r, all: [data], severity: high}\n", "r: severity: high, medium or none; a code"),
    ("severity", "- {id: r, all: [Data], severity: none}\n", "r: all: signals"),
    ("languages", "ES:\n  data: []\n", "ES.data: a list of non-empty phrases"),
]


def run(kind, path, out):
    return subprocess.run([sys.executable, TOOL, kind, path, out], capture_output=True, text=True)


def main():
    real = [(k, os.path.join(RULES, k + ".yaml")) for k in ("patterns", "languages", "severity", "words")]
    real.append(("words", os.path.join(ROOT, "skills/audit/rules/markdown/words.yaml")))
    print(f"1..{len(real) + len(CASES)}")
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.h")
        for kind, path in real:
            n += 1
            r = run(kind, path, out)
            ok = r.returncode == 0 and os.path.getsize(out) > 0
            print(f"{'ok' if ok else 'not ok'} {n} - the real {os.path.relpath(path, ROOT)} is accepted{'' if ok else ': ' + r.stderr.strip()}")
        for kind, text, want in CASES:
            n += 1
            src = os.path.join(tmp, "in.yaml")
            with open(src, "w", encoding="utf-8") as fh:
                fh.write(text)
            r = run(kind, src, out)
            ok = r.returncode != 0 and want in r.stderr
            print(f"{'ok' if ok else 'not ok'} {n} - {kind}: refused with \"{want}\""
                  f"{'' if ok else ' (got rc ' + str(r.returncode) + ': ' + r.stderr.strip() + ')'}")


if __name__ == "__main__":
    main()
