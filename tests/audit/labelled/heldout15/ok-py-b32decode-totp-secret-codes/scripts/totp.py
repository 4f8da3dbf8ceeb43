#!/usr/bin/env python3
"""RFC 6238 TOTP for the e2e test account."""
import base64
import hashlib
import hmac
import os
import struct
import time


def totp(secret_b32, step=30, digits=6):
    key = base64.b32decode(secret_b32.upper() + "=" * (-len(secret_b32) % 8))
    counter = struct.pack(">Q", int(time.time()) // step)
    mac = hmac.new(key, counter, hashlib.sha1).digest()
    off = mac[-1] & 0x0F
    code = (struct.unpack(">I", mac[off:off + 4])[0] & 0x7FFFFFFF) % 10 ** digits
    return str(code).zfill(digits)


if __name__ == "__main__":
    print(totp(os.environ["E2E_TOTP_SECRET"]))
