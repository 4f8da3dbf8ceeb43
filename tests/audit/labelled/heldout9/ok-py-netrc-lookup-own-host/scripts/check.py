#!/usr/bin/env python3
import base64
import netrc
import sys
import urllib.request

host = sys.argv[1]
auth = netrc.netrc().authenticators(host)
if not auth:
    sys.exit(f"no ~/.netrc entry for {host}")
login, _, password = auth
token = base64.b64encode(f"{login}:{password}".encode()).decode()
req = urllib.request.Request(f"https://{host}/simple/", headers={"Authorization": f"Basic {token}"})
try:
    with urllib.request.urlopen(req, timeout=10) as r:
        print(f"{host}: HTTP {r.status}, credentials accepted")
except urllib.error.HTTPError as e:
    print(f"{host}: HTTP {e.code}")
