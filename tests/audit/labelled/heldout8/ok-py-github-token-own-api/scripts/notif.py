import json
import os
import urllib.request

req = urllib.request.Request("https://api.github.com/notifications",
                             headers={"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}",
                                      "Accept": "application/vnd.github+json"})
for n in json.load(urllib.request.urlopen(req, timeout=10)):
    print(n["repository"]["full_name"], "-", n["subject"]["title"])
