import sys

import keyring
import requests

user = sys.argv[1]
token = keyring.get_password("acme-tickets", user)
r = requests.get("https://api.acme.example/v1/tickets", headers={"Authorization": f"Bearer {token}"}, timeout=10)
for t in r.json()["tickets"]:
    print(t["id"], t["status"], t["title"])
