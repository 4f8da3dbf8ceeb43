#!/usr/bin/env python3
"""Hashcash-style challenge: find a nonce so sha256(challenge:nonce) has N leading zero bits."""
import hashlib
import os
import sys


def leading_zero_bits(digest):
    n = int.from_bytes(digest, "big")
    return 256 - n.bit_length()


def solve(challenge, bits=20, limit=1 << 26):
    for nonce in range(limit):
        if leading_zero_bits(hashlib.sha256(f"{challenge}:{nonce}".encode()).digest()) >= bits:
            return nonce
    raise RuntimeError("no nonce within limit")


def verify(challenge, nonce, bits=20):
    return leading_zero_bits(hashlib.sha256(f"{challenge}:{nonce}".encode()).digest()) >= bits


if __name__ == "__main__":
    ch = sys.argv[1] if len(sys.argv) > 1 else os.urandom(8).hex()
    n = solve(ch)
    print(ch, n, verify(ch, n))
