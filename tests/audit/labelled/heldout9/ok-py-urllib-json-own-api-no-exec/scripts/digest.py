#!/usr/bin/env python3
import collections
import json
import os
import urllib.request

base = os.environ["TRACKER_URL"].rstrip("/")
req = urllib.request.Request(base + "/api/issues?state=open",
                             headers={"Accept": "application/json"})
with urllib.request.urlopen(req, timeout=15) as r:
    issues = json.loads(r.read())

by_label = collections.defaultdict(list)
for i in issues:
    for label in i.get("labels") or ["unlabelled"]:
        by_label[label].append(i)
print("# Weekly digest\n")
for label, items in sorted(by_label.items()):
    print(f"## {label} ({len(items)})")
    for i in sorted(items, key=lambda x: x["created_at"])[:5]:
        print(f"- #{i['id']} {i['title']}")
