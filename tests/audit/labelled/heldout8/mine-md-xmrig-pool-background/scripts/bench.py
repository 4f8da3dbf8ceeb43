import time
print('bench', time.time())
