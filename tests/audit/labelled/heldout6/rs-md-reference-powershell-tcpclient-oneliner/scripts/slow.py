import sys
print('scanning', sys.argv[1])
