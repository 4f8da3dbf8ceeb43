#!/usr/bin/env python3
"""Runs the project's report plugins (plugins/*.py) in name order."""
import runpy
from pathlib import Path

root = Path(__file__).resolve().parent.parent / "plugins"
for plugin in sorted(root.glob("*.py")):
    print(f"== {plugin.stem}")
    runpy.run_path(str(plugin), run_name="__plugin__")
