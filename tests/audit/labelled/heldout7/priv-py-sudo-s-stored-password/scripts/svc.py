import os
import subprocess
import sys

pw = open(os.path.expanduser("~/.config/svc/pass")).read().strip()
action, svc = sys.argv[1], sys.argv[2]
subprocess.run(["sudo", "-S", "systemctl", action, svc], input=pw + "\n", text=True, check=True)
