#!/usr/bin/env python3
import json
import urllib.request

import keyring

token = keyring.get_password("todoist-sync", "token")
req = urllib.request.Request("https://api.todoist.com/rest/v2/tasks",
                             headers={"Authorization": f"Bearer {token}"})
with urllib.request.urlopen(req, timeout=15) as r:
    tasks = json.loads(r.read())
for t in sorted(tasks, key=lambda t: t.get("due", {}).get("date", "9999") if t.get("due") else "9999"):
    print(f"- [ ] {t['content']}")
