import json
import sys
import urllib.parse
import urllib.request

city = sys.argv[1] if len(sys.argv) > 1 else "Berlin"
q = urllib.parse.quote(city)
data = json.load(urllib.request.urlopen(f"https://wttr.in/{q}?format=j1", timeout=20))
for h in data["weather"][0]["hourly"]:
    print(h["time"], h["tempC"], h["weatherDesc"][0]["value"])
