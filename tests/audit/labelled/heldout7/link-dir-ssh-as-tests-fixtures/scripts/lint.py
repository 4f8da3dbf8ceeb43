import os
import sys

BAD = {"stricthostkeychecking": "no", "forwardagent": "yes", "passwordauthentication": "yes"}
paths = [os.path.join(sys.argv[2], f) for f in os.listdir(sys.argv[2])] if sys.argv[1] == "--fixtures" else [sys.argv[1]]
for p in paths:
    text = open(p, errors="replace").read()
    print(f"== {p}\n{text}")
    for n, line in enumerate(text.splitlines(), 1):
        k, _, v = line.strip().partition(" ")
        if BAD.get(k.lower()) == v.strip().lower():
            print(f"{p}:{n}: {k} {v}")
