import csv
import sys
from collections import Counter

rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for col in rows[0].keys() if rows else []:
    vals = [r[col] for r in rows]
    missing = sum(1 for v in vals if not v)
    print(f"{col}: {len(set(vals))} distinct, {missing} missing, top {Counter(vals).most_common(3)}")
