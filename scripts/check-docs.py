#!/usr/bin/env python3
"""The user docs' check (CONTRIBUTING.md): docs/ speaks to users, not to the project's history.

Fails on a reference to an issue or a round of work in docs/*.md ("issue 48", "round 15",
"#45", "the third round"): the history of measurements lives in bench/*/results/, the history
of changes in git. Code spans and fenced blocks are not read (`warning #177-D` is nvcc's).
Also fails on a relative link in docs/*.md or README.md whose file is missing, or whose
`#anchor` names no heading of that file (GitHub's way of making an anchor from a heading).

Usage: check-docs.py [SOURCE_ROOT]. Exit 0 when clean, 1 naming each file:line.
"""
import functools
import re
import sys
from pathlib import Path

HISTORY = re.compile(
    r"\b(?:issues?|PR|pull request)\s*#?\d+"
    r"|\brounds?[ -]\d+"
    r"|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|this|last|next)"
    r" round\b"
    r"|(?<![\w&/])#\d{2,}\b",
    re.IGNORECASE,
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def prose_lines(text):
    """Yield (line number, line without code spans), skipping fenced blocks."""
    fenced = False
    for n, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield n, CODE_SPAN.sub("``", line)


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@functools.lru_cache(maxsize=None)
def anchors(path):
    seen = {}
    out = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        m = re.match(r"#{1,6}\s+(.*)", line)
        if not m:
            continue
        base = slug(m.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def check_links(path, root, errors):
    text = path.read_text(encoding="utf-8")
    for n, line in prose_lines(text):
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(root)}:{n}"
            if not dest.exists():
                errors.append(f"{where}: link to {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                errors.append(f"{where}: link to {target}: no heading makes #{anchor}")


def check_history(path, root, errors):
    for n, line in prose_lines(path.read_text(encoding="utf-8")):
        for m in HISTORY.finditer(line):
            errors.append(f"{path.relative_to(root)}:{n}: '{m.group(0)}': user docs name no issue or "
                          "round (measurements go to bench/*/results/, history to git)")


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    docs = sorted((root / "docs").glob("*.md"))
    if not docs:
        print(f"check-docs: no docs/*.md under {root}", file=sys.stderr)
        return 1
    errors = []
    for path in docs:
        check_history(path, root, errors)
        check_links(path, root, errors)
    if (root / "README.md").exists():
        check_links(root / "README.md", root, errors)
    for e in errors:
        print(e)
    print(f"check-docs: {len(docs)} docs read, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
