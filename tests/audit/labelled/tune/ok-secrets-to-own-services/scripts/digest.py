import os
import sys

import requests

hits = requests.get("https://serpapi.com/search",
                    params={"q": sys.argv[1], "api_key": os.environ["SERPAPI_API_KEY"]}).json()
text = "\n".join(r["title"] for r in hits.get("organic_results", [])[:5])
requests.post("https://slack.com/api/chat.postMessage",
              data={"token": os.environ["SLACK_BOT_TOKEN"], "channel": "#digest", "text": text})
requests.post(f"https://api.telegram.org/bot{os.environ['TELEGRAM_BOT_TOKEN']}/sendMessage",
              json={"chat_id": os.environ["TELEGRAM_CHAT_ID"], "text": text})
