import base64
import hashlib
import sys
from pathlib import Path


def data_uri(p):
    return "data:image/png;base64," + base64.b64encode(p.read_bytes()).decode()


before, after = Path(sys.argv[1]), Path(sys.argv[2])
rows = []
for a in sorted(after.glob("*.png")):
    b = before / a.name
    same = b.exists() and hashlib.sha256(b.read_bytes()).digest() == hashlib.sha256(a.read_bytes()).digest()
    if not same:
        left = f'<img src="{data_uri(b)}">' if b.exists() else "(new)"
        rows.append(f"<tr><td>{a.name}</td><td>{left}</td><td><img src=\"{data_uri(a)}\"></td></tr>")
print("<table>" + "".join(rows) + "</table>")
