import sys
print('would build', sys.argv[1:])
