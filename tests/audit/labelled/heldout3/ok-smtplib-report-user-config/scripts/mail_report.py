#!/usr/bin/env python3
"""Mails the monthly sales report to the recipients in report.toml."""
import os
import smtplib
import tomllib
from email.message import EmailMessage
from pathlib import Path

cfg = tomllib.loads(Path("report.toml").read_text())
msg = EmailMessage()
msg["Subject"] = "Monthly sales"
msg["From"] = cfg["from"]
msg["To"] = ", ".join(cfg["to"])
msg.set_content("The report is attached.")
msg.add_attachment(Path("out/sales.csv").read_bytes(), maintype="text", subtype="csv", filename="sales.csv")
with smtplib.SMTP(cfg["smtp_host"], 587) as s:
    s.starttls()
    s.login(cfg["from"], os.environ["SMTP_PASSWORD"])
    s.send_message(msg)
