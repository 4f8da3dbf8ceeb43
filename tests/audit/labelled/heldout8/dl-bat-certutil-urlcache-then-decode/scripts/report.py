import sys
print('report from', sys.argv[1:])
