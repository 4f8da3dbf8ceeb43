import base64
import os

import requests

auth = base64.b64encode(f"{os.environ['JIRA_USER']}:{os.environ['JIRA_API_TOKEN']}".encode()).decode()
r = requests.get("https://example.atlassian.net/rest/api/3/search", params={"jql": "assignee=currentUser()"},
                 headers={"Authorization": f"Basic {auth}"})
for i in r.json()["issues"]:
    print(i["key"], i["fields"]["summary"])
