import sys
import urllib.request
import xml.etree.ElementTree as ET

for url in open(sys.argv[1]).read().split():
    root = ET.fromstring(urllib.request.urlopen(url, timeout=20).read())
    for item in root.iter("item"):
        print(item.findtext("title"), item.findtext("link"))
