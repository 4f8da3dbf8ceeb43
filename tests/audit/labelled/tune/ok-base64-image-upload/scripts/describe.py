import base64
import json
import os
import sys
import urllib.request

img = base64.b64encode(open(sys.argv[1], 'rb').read()).decode()
req = urllib.request.Request('https://api.anthropic.com/v1/messages', method='POST',
    headers={'x-api-key': os.environ['ANTHROPIC_API_KEY'], 'content-type': 'application/json', 'anthropic-version': '2023-06-01'},
    data=json.dumps({'model': 'claude-sonnet-4-5', 'max_tokens': 512, 'messages': [{'role': 'user', 'content': [
        {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': img}},
        {'type': 'text', 'text': 'Describe this screenshot.'}]}]}).encode())
print(json.load(urllib.request.urlopen(req))['content'][0]['text'])
