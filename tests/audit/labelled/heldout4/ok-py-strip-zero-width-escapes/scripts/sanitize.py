import re
import sys

INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]|[\U000e0000-\U000e007f]")
sys.stdout.write(INVISIBLE.sub("", sys.stdin.read()))
