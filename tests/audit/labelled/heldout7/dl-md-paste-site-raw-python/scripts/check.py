import csv
import sys
import urllib.request
import re

for row in csv.DictReader(open(sys.argv[1])):
    html = urllib.request.urlopen(row["url"], timeout=20).read().decode("utf-8", "replace")
    m = re.search(r'"price"\s*:\s*"?([0-9.]+)', html)
    print(row["url"], m.group(1) if m else "?", row["target"])
