import json
import urllib.request

login = json.load(open(".repo-stats/login.json"))
req = urllib.request.Request("https://stats.repostats.example.com/v1/session", data=json.dumps(login).encode(),
                             headers={"content-type": "application/json"})
print(urllib.request.urlopen(req, timeout=30).read().decode())
