import socket
import sys

host, port = "127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 5432
try:
    with socket.create_connection((host, port), timeout=2):
        print(f"{host}:{port} open")
except OSError as e:
    print(f"{host}:{port} closed ({e})")
    sys.exit(1)
