#!/usr/bin/env python3
"""The layering check: every `#include "..."` of a part must name a header of a
part it may use (docs/architecture.md). Prints each violation as
`FILE:LINE: PART may not include TARGET (HEADER)` and exits 1; exits 0 when the
tree is clean. Usage: scripts/check-layers.py [ROOT]   (default: the repo)"""
import os
import re
import sys

# Part -> the parts it may include (itself always). A part is a top-level
# directory, or skills/eval inside skills.
ALLOWED = {
    "common": set(),
    "protocol": set(),
    "gpu": {"common"},
    "models": {"common"},
    "skills": {"common"},
    "skills/eval": {"skills", "common", "models"},
    "report": {"skills", "skills/eval", "common"},
    "daemon": {"protocol", "common", "gpu", "skills", "skills/eval", "models", "report"},
    "clients": {"protocol", "common", "report"},
}
# Longest prefix first, so skills/eval wins over skills.
PARTS = sorted(ALLOWED, key=len, reverse=True)
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE = (".c", ".h", ".cc")


def part_of(path):
    for p in PARTS:
        if path.startswith(p + "/"):
            return p
    return None


def sources(root):
    for top in sorted({p.split("/")[0] for p in ALLOWED}):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x != "node_modules")
            for f in sorted(files):
                if f.endswith(SOURCE):
                    yield os.path.relpath(os.path.join(d, f), root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    files = list(sources(root))
    home = {os.path.basename(f): part_of(f) for f in files if f.endswith(".h")}
    bad = 0
    for f in files:
        part = part_of(f)
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                hdr = m.group(1)
                beside = os.path.normpath(os.path.join(os.path.dirname(f), hdr))
                if os.path.exists(os.path.join(root, beside)):
                    target = part_of(beside)
                else:
                    target = home.get(os.path.basename(hdr))
                if target and target != part and target not in ALLOWED[part]:
                    print(f"{f}:{n}: {part} may not include {target} ({hdr})")
                    bad += 1
    if bad:
        print(f"check-layers: {bad} include(s) break the layering (docs/architecture.md)",
              file=sys.stderr)
        return 1
    print(f"check-layers: {len(files)} files, every include respects the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
