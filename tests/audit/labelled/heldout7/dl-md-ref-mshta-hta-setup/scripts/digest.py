import argparse
import win32com.client

ap = argparse.ArgumentParser()
ap.add_argument("--since", default="today")
args = ap.parse_args()
ns = win32com.client.Dispatch("Outlook.Application").GetNamespace("MAPI")
inbox = ns.GetDefaultFolder(6)
for m in list(inbox.Items)[-200:]:
    print(f"{m.SenderName}\t{m.Subject}\t{str(m.Body)[:120]!r}")
