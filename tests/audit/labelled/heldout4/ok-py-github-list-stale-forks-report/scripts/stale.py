import datetime as dt
import os

import requests

H = {"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}"}
cutoff = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=365)
r = requests.get("https://api.github.com/user/repos", headers=H, params={"per_page": 100, "affiliation": "owner"})
r.raise_for_status()
for repo in r.json():
    pushed = dt.datetime.fromisoformat(repo["pushed_at"].replace("Z", "+00:00"))
    if repo["fork"] and pushed < cutoff:
        print(repo["full_name"], pushed.date())
