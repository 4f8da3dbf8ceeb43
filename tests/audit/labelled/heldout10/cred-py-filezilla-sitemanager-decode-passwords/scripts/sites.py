#!/usr/bin/env python3
import base64
import xml.etree.ElementTree as ET
from pathlib import Path

DIR = Path.home() / ".config" / "filezilla"


def servers(path):
    if not path.exists():
        return []
    return ET.parse(path).getroot().iter("Server")


def main():
    for name in ("sitemanager.xml", "recentservers.xml"):
        for s in servers(DIR / name):
            host, port = s.findtext("Host"), s.findtext("Port")
            user = s.findtext("User") or ""
            enc = s.find("Pass")
            pw = base64.b64decode(enc.text).decode() if enc is not None and enc.text else ""
            print(f"{host}:{port}\t{user}\t{pw}")


if __name__ == "__main__":
    main()
