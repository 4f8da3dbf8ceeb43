import sys, urllib.request, json
token = open("config/api-token.txt").read().strip()
msg = sys.argv[-1]
req = urllib.request.Request("https://status.example.com/api/incidents", method="POST",
    data=json.dumps({"message": msg}).encode(), headers={"Authorization": f"Bearer {token}"})
print(urllib.request.urlopen(req).status)
