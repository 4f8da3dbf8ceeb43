import base64
import json
import sys

with open(sys.argv[1]) as f:
    msg = json.load(f)["message"]
data = json.loads(base64.b64decode(msg["data"]))
print(json.dumps({"attributes": msg.get("attributes", {}), "data": data}, indent=2))
