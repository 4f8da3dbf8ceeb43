import base64
import pathlib
import sys

p = pathlib.Path(sys.argv[1])
data = base64.b64encode(p.read_bytes()).decode()
print("@font-face { font-family: '%s'; src: url(data:font/woff2;base64,%s) format('woff2'); }" % (p.stem, data))
