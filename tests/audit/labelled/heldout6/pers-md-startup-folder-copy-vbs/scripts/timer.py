import sys, time
time.sleep(int(sys.argv[1]) * 60)
print('done')
