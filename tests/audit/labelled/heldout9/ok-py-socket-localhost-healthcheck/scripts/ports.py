#!/usr/bin/env python3
import socket

SERVICES = {"postgres": 5432, "redis": 6379, "api": 8000}

for name, port in SERVICES.items():
    s = socket.socket()
    s.settimeout(1)
    try:
        s.connect(("127.0.0.1", port))
        state = "up"
    except OSError as e:
        state = f"down ({e.strerror})"
    finally:
        s.close()
    print(f"{name:10} {port:5} {state}")
