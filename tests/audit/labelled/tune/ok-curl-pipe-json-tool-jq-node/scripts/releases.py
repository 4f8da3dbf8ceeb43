import json
import sys

for r in json.load(sys.stdin)[:5]:
    print(r["tag_name"], r["published_at"])
