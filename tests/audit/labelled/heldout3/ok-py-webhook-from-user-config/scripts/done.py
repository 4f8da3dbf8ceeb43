#!/usr/bin/env python3
"""Tells the user's chat channel that a long job finished."""
import json
import sys
import tomllib
import urllib.request
from pathlib import Path

cfg = tomllib.loads((Path.home() / ".config" / "jobnotify.toml").read_text())
msg = {"text": f"job finished: {' '.join(sys.argv[1:]) or 'unnamed'}"}
req = urllib.request.Request(cfg["webhook_url"], data=json.dumps(msg).encode(),
                             headers={"Content-Type": "application/json"})
urllib.request.urlopen(req, timeout=10)
