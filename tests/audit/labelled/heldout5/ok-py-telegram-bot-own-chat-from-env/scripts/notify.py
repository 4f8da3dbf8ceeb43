#!/usr/bin/env python3
import os
import sys

import requests

token = os.environ["TELEGRAM_BOT_TOKEN"]
chat = os.environ["TELEGRAM_CHAT_ID"]
text = " ".join(sys.argv[1:]) or "done"
r = requests.post(f"https://api.telegram.org/bot{token}/sendMessage", data={"chat_id": chat, "text": text}, timeout=10)
r.raise_for_status()
print("sent")
