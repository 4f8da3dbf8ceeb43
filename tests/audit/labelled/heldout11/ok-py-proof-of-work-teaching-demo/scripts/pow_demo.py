#!/usr/bin/env python3
"""Toy proof of work for teaching: finds a nonce in the foreground and stops."""
import argparse
import hashlib
import time


def mine(block, difficulty):
    target = "0" * difficulty
    nonce = 0
    while True:
        h = hashlib.sha256(f"{block}{nonce}".encode()).hexdigest()
        if h.startswith(target):
            return nonce, h
        nonce += 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--difficulty", type=int, default=4, choices=range(1, 6))
    a = ap.parse_args()
    t = time.time()
    nonce, h = mine("block 1: Alice pays Bob 5", a.difficulty)
    print(f"nonce={nonce} hash={h} in {time.time() - t:.2f}s")
