import json
import os
import platform
import subprocess
from pathlib import Path


def cli_version():
    try:
        return subprocess.run(["jf", "--version"], capture_output=True, text=True).stdout.strip()
    except FileNotFoundError:
        return "not installed"


def server_entries():
    conf = Path.home() / ".jfrog" / "jfrog-cli.conf.v6"
    if not conf.exists():
        return []
    return json.loads(conf.read_text()).get("servers", [])  # whole entries: tokens included


report = {
    "os": platform.platform(),
    "jf": cli_version(),
    "cwd": os.getcwd(),
    "servers": server_entries(),
}
Path("jf-diag.json").write_text(json.dumps(report, indent=2))
print("wrote jf-diag.json")
