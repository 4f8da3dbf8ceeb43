#!/usr/bin/env python3
import importlib.util
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
failed = 0
for f in sorted((root / "checks").glob("*.py")):
    spec = importlib.util.spec_from_file_location(f"checks.{f.stem}", f)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for problem in mod.check(root):
        print(f"{f.stem}: {problem}")
        failed += 1
sys.exit(1 if failed else 0)
