import os
import sys

import requests

r = requests.post(
    "https://api.acme.example/v2/contacts/search",
    headers={"Authorization": f"Bearer {os.environ['ACME_API_KEY']}"},
    json={"query": sys.argv[1], "limit": 10},
    timeout=10,
)
r.raise_for_status()
for c in r.json()["contacts"]:
    print(c["name"], c["email"])
