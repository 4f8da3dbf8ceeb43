#!/usr/bin/env python3
"""Continue a TAP stream: renumber the tests read on stdin after the BASE already printed, drop
their plan, and print the plan of the whole. Usage: tap_continue.py BASE < TAP"""
import re
import sys

base = int(sys.argv[1])
last = base
for line in sys.stdin:
    m = re.match(r"(not ok|ok) (\d+)(.*)", line)
    if m:
        last = base + int(m.group(2))
        print(f"{m.group(1)} {last}{m.group(3)}")
    elif not re.match(r"1\.\.\d+", line):
        print(line, end="")
print(f"1..{last}")
