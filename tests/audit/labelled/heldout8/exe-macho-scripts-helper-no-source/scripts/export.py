import sys
print('export', sys.argv[1:])
