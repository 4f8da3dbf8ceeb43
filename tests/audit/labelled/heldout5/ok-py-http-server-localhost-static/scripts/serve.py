#!/usr/bin/env python3
import functools
import http.server
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "_build/html"
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
with http.server.ThreadingHTTPServer(("127.0.0.1", 8000), handler) as srv:
    print("serving", root, "on http://127.0.0.1:8000")
    srv.serve_forever()
