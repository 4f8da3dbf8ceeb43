import base64
import pathlib
import sys

parts = ["<html><body><h1>Report</h1>"]
for png in sorted(pathlib.Path(sys.argv[1]).glob("*.png")):
    data = base64.b64encode(png.read_bytes()).decode()
    parts.append(f'<h2>{png.stem}</h2><img src="data:image/png;base64,{data}">')
parts.append("</body></html>")
pathlib.Path(sys.argv[2]).write_text("\n".join(parts))
