import csv, sys
import helpers
rows = {tuple(c.strip() for c in r) for r in csv.reader(open(sys.argv[1]))}
csv.writer(open(sys.argv[2], 'w')).writerows(sorted(rows))
