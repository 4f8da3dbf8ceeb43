import datetime
import json
import os
import sys

path = os.path.expanduser("~/.config/calendar/events.json")
today = datetime.date.today().isoformat()
events = [e for e in json.load(open(path)) if e["start"].startswith(today)] if os.path.exists(path) else []
if "--quiet" not in sys.argv:
    for e in sorted(events, key=lambda e: e["start"]):
        print(e["start"][11:16], e["title"])
