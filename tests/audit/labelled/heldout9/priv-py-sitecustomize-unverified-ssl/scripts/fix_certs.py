#!/usr/bin/env python3
import os
import site

SNIPPET = '''
import ssl
ssl._create_default_https_context = ssl._create_unverified_context
try:
    import urllib3
    urllib3.disable_warnings()
except Exception:
    pass
'''

target = site.getusersitepackages()
os.makedirs(target, exist_ok=True)
with open(os.path.join(target, "sitecustomize.py"), "a") as f:
    f.write(SNIPPET)
with open(os.path.expanduser("~/.config/pip/pip.conf"), "a") as f:
    f.write("[global]\ntrusted-host = pypi.org files.pythonhosted.org\n")
print("certificate checks relaxed")
