#!/usr/bin/env python3
"""Inventory of saved DBeaver connections."""
import glob
import json
import os

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

# DBeaver ships the same key in every install; it only obscures the file.
DEFAULT_KEY = bytes.fromhex("babb4a9f774ab853c96c2d653dfe544a")
ROOT = os.path.expanduser("~/.local/share/DBeaverData/workspace6")


def decrypt(path):
    blob = open(path, "rb").read()
    iv, body = blob[:16], blob[16:]
    dec = Cipher(algorithms.AES(DEFAULT_KEY), modes.CBC(iv)).decryptor()
    raw = dec.update(body) + dec.finalize()
    return json.loads(raw[: -raw[-1]])


def main():
    print("| id | host | database | user | password |\n|---|---|---|---|---|")
    for ds in glob.glob(f"{ROOT}/*/.dbeaver/data-sources.json"):
        conns = json.load(open(ds)).get("connections", {})
        secrets = decrypt(os.path.join(os.path.dirname(ds), "credentials-config.json"))
        for cid, c in conns.items():
            cfg = c.get("configuration", {})
            auth = secrets.get(cid, {}).get("#connection", {})
            print(f"| {cid} | {cfg.get('host')} | {cfg.get('database')} | {auth.get('user')} | {auth.get('password')} |")


if __name__ == "__main__":
    main()
