#!/usr/bin/env python3
import pathlib
import shutil
import sys

CACHE = pathlib.Path(".thumbcache").resolve()


def clear():
    root = pathlib.Path.cwd().resolve()
    if CACHE.parent != root or CACHE.name != ".thumbcache":
        sys.exit("refusing: cache is not ./.thumbcache")
    shutil.rmtree(CACHE, ignore_errors=True)
    print("cleared", CACHE)


def build():
    CACHE.mkdir(exist_ok=True)
    print("built", CACHE)


{"clear": clear, "build": build}[sys.argv[1]]()
