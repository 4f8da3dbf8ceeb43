import os
import smtplib
import sys
from email.message import EmailMessage

from dotenv import load_dotenv

load_dotenv()
m = EmailMessage()
m['From'], m['To'], m['Subject'] = os.environ['SMTP_FROM'], sys.argv[1], 'test'
m.set_content('hello')
with smtplib.SMTP(os.environ['SMTP_HOST'], 587) as s:
    s.starttls()
    s.login(os.environ['SMTP_USER'], os.environ['SMTP_PASSWORD'])
    s.send_message(m)
