import sys
print('search', sys.argv[1:])
