import os
print(os.listdir(os.path.expanduser('~/Downloads')))
