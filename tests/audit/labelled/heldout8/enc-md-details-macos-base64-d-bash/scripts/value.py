import csv, sys
for r in csv.reader(open(sys.argv[1])):
    print(r)
