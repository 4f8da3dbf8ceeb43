#!/usr/bin/env python3
import base64, re, sys
from pathlib import Path

URI = re.compile(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)")


def main(src, out):
    Path(out).mkdir(parents=True, exist_ok=True)
    text = Path(src).read_text(errors="replace")
    for n, m in enumerate(URI.finditer(text)):
        ext, data = m.group(1), m.group(2)
        path = Path(out) / f"image-{n:03d}.{'jpg' if ext == 'jpeg' else ext}"
        path.write_bytes(base64.b64decode(data))
        print(path)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
