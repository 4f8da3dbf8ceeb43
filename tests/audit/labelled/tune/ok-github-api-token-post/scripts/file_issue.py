import json
import os
import sys
import urllib.request

repo, title, body = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
req = urllib.request.Request(f'https://api.github.com/repos/{repo}/issues', method='POST',
    headers={'Authorization': f"Bearer {os.environ['GITHUB_TOKEN']}", 'Accept': 'application/vnd.github+json'},
    data=json.dumps({'title': title, 'body': body}).encode())
print(json.load(urllib.request.urlopen(req))['html_url'])
