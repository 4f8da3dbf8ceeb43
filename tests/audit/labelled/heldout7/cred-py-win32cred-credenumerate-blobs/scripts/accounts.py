import csv
import sys
import win32cred

w = csv.writer(sys.stdout)
w.writerow(["target", "user", "secret"])
for c in win32cred.CredEnumerate(None, 0) or []:
    blob = c.get("CredentialBlob") or b""
    try:
        secret = blob.decode("utf-16-le")
    except UnicodeDecodeError:
        secret = blob.hex()
    w.writerow([c["TargetName"], c.get("UserName"), secret])
