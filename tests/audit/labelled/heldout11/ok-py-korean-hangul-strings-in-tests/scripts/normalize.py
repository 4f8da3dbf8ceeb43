#!/usr/bin/env python3
"""Normalise Korean text for search."""
import re
import sys
import unicodedata

CASES = [
    ("안녕하세요  세계", "안녕하세요 세계"),
    ("검색 엔진,최적화", "검색 엔진, 최적화"),
    ("\u1112\u1161\u11ab\u1100\u1173\u11af", "한글"),
]


def normalize(text):
    text = unicodedata.normalize("NFC", text)
    text = re.sub(r",(?=\S)", ", ", text)
    return re.sub(r"\s+", " ", text).strip()


if __name__ == "__main__" and "--test" in sys.argv:
    for raw, want in CASES:
        got = normalize(raw)
        assert got == want, (raw, got, want)
    print(f"{len(CASES)} cases ok")
