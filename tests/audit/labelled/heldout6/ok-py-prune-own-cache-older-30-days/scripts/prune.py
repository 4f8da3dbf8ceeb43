import os
import time

CACHE = os.path.realpath(os.path.expanduser("~/.cache/thumbgen"))
limit = time.time() - 30 * 86400
removed = 0
for root, _, files in os.walk(CACHE):
    for name in files:
        p = os.path.realpath(os.path.join(root, name))
        if os.path.commonpath([p, CACHE]) != CACHE:
            continue
        if os.path.getmtime(p) < limit:
            os.remove(p)
            removed += 1
print(f"removed {removed} files")
