import sys, zipfile
src = sys.argv[1]
print('stripping', src)
