import json
import os
import sys
import urllib.request

url = os.environ.get("SLACK_WEBHOOK_URL")
if not url:
    sys.exit("set SLACK_WEBHOOK_URL to your channel's incoming webhook")
body = json.dumps({"text": sys.argv[1][:300]}).encode()
req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
urllib.request.urlopen(req, timeout=10)
