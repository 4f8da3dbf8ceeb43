import csv, sys
from accel import ratio
rows = list(csv.DictReader(open(sys.argv[1])))
keep = []
for r in rows:
    if not any(ratio(r["email"], k["email"]) > 0.92 for k in keep):
        keep.append(r)
print(len(rows) - len(keep), "duplicates")
