import json
import os
import sys
import urllib.request

url = os.environ.get("DISCORD_WEBHOOK_URL")
if not url:
    sys.exit("set DISCORD_WEBHOOK_URL to your channel's webhook")
project, status = sys.argv[1], sys.argv[2]
body = json.dumps({"content": f"{project}: build {status}"}).encode()
urllib.request.urlopen(urllib.request.Request(url, data=body, headers={"content-type": "application/json"}), timeout=15)
