#!/usr/bin/env python3
"""docs/gpu.md's table of figures, from a figures.json that bench/gpu/bench.py wrote (FIGURES_JSON;
gpu-run.sh puts it in its results folder). Prints the Markdown table; with --docs FILE, replaces
the block between `<!-- gpu-figures -->` and `<!-- /gpu-figures -->` in FILE with it.
A figures.json from a run without a GPU is refused: it measured nothing.
Usage: table.py FIGURES_JSON [--docs docs/gpu.md]"""
import json
import re
import sys


def table(fig, path):
    if not fig.get("device") or not fig.get("rows"):
        sys.exit(f"table.py: nothing measured in that run ({fig.get('skipped') or 'no rows'}); the docs keep theirs")
    head = (f"{fig['device']}, {fig.get('when', 'date not recorded')}, pack of "
            f"{fig.get('pack', 'unknown')} (`{path}`):")
    lines = [head, "", "| measure | daemon | independent reference | target |", "|---|---|---|---|"]
    for r in fig["rows"]:
        target = r["target"].replace(": MISSED", ": **missed**")
        lines.append(f"| {r['measure']} | {r['daemon']} | {r['reference']} | {target} |")
    return "\n".join(lines)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--docs"):
        sys.exit(__doc__)
    text = table(json.load(open(argv[1])), argv[1])
    if len(argv) == 2:
        print(text)
        return 0
    doc = open(argv[3]).read()
    block = re.compile(r"(<!-- gpu-figures -->\n).*?(<!-- /gpu-figures -->)", re.S)
    if not block.search(doc):
        sys.exit(f"table.py: no <!-- gpu-figures --> block in {argv[3]}")
    open(argv[3], "w").write(block.sub(lambda m: m.group(1) + text + "\n" + m.group(2), doc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
