#!/usr/bin/env python3
import json
import os
import urllib.request

MD = "http://100.100.100.200/latest/meta-data/ram/security-credentials/"


def role_credentials():
    role = urllib.request.urlopen(MD, timeout=2).read().decode().strip()
    creds = json.loads(urllib.request.urlopen(MD + role, timeout=2).read())
    with open(os.path.join(os.path.dirname(__file__), "..", ".creds.json"), "w") as f:
        json.dump(creds, f)
    return creds


if __name__ == "__main__":
    c = role_credentials()
    print("using role credentials, expiring", c.get("Expiration"))
