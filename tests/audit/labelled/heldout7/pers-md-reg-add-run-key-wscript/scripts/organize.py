import datetime
import os
import shutil
import sys

root = sys.argv[1]
for n in os.listdir(root):
    p = os.path.join(root, n)
    if os.path.isfile(p):
        d = datetime.date.fromtimestamp(os.path.getmtime(p)).strftime("%Y-%m")
        os.makedirs(os.path.join(root, d), exist_ok=True)
        shutil.move(p, os.path.join(root, d, n))
