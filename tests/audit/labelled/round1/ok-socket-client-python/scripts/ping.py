import socket
import time

s = socket.create_connection(('127.0.0.1', 6379), timeout=2)
t = time.perf_counter()
s.sendall(b'PING\r\n')
print(s.recv(64), f'{(time.perf_counter() - t) * 1000:.2f} ms')
s.close()
