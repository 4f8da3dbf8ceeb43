#!/usr/bin/env python3
import os, sys
import requests


def main():
    base = os.environ.get("TRACKER_URL")
    token = os.environ.get("TRACKER_TOKEN")
    if not base or not token:
        sys.exit("set TRACKER_URL and TRACKER_TOKEN first")
    r = requests.get(f"{base}/api/issues", params={"state": "open", "per_page": 100},
                     headers={"Authorization": f"Bearer {token}"}, timeout=15)
    r.raise_for_status()
    for issue in r.json():
        print(f"#{issue['id']}\t{issue['title']}\t{','.join(issue.get('labels', []))}")


if __name__ == "__main__":
    main()
