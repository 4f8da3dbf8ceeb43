import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), 'rows')
