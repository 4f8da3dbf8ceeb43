import struct

import pytest

VECTORS = [
    ("89504e470d0a1a0a0000000d49484452", "png"),
    ("7f454c46020101000000000000000000", "elf"),
    ("504b0304140000000800", "zip"),
]


def sniff(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return "png"
    if data[:4] == b"\x7fELF":
        return "elf"
    if struct.unpack("<I", data[:4])[0] == 0x04034B50:
        return "zip"
    return "unknown"


@pytest.mark.parametrize("hexdata,kind", VECTORS)
def test_sniff(hexdata, kind):
    assert sniff(bytes.fromhex(hexdata)) == kind
