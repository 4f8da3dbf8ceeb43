import sys
print('capture', sys.argv[1:])
