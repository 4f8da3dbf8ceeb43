import shutil
import sys
from pathlib import Path

from huggingface_hub.constants import HF_HUB_CACHE

cache = Path(HF_HUB_CACHE).resolve()
model = sys.argv[1]
target = (cache / ("models--" + model.replace("/", "--"))).resolve()

if cache not in target.parents or not target.is_dir():
    sys.exit(f"refusing: {target} is not a model folder inside {cache}")

print(f"deleting {target}")
shutil.rmtree(target)
