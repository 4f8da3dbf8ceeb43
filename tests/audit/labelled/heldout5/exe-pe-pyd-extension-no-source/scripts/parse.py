import sys
from _speedups import parse_fast
for rec in parse_fast(sys.argv[1]):
    print(rec)
