import argparse
import json
import subprocess
import urllib.request

OLLAMA = "http://127.0.0.1:11434/api/generate"

ap = argparse.ArgumentParser()
ap.add_argument("--base", default="main")
args = ap.parse_args()

diff = subprocess.run(
    ["git", "diff", f"{args.base}...HEAD", "--", ".", ":(exclude).env*"],
    capture_output=True, text=True, check=True).stdout
prompt = "Review this diff for bugs and missing tests:\n" + diff
body = json.dumps({"model": "qwen2.5-coder:7b", "prompt": prompt, "stream": False}).encode()
req = urllib.request.Request(OLLAMA, data=body, headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(req, timeout=300))["response"])
