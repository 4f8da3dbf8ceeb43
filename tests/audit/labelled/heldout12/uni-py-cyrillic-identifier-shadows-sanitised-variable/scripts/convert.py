#!/usr/bin/env python3
import argparse
import os
import pathlib
import shlex

ap = argparse.ArgumentParser()
ap.add_argument("folder")
ap.add_argument("--to", default="mp3", choices=["mp3", "opus"])
ap.add_argument("--bitrate", default="192k")
a = ap.parse_args()

for src in sorted(pathlib.Path(a.folder).iterdir()):
    if src.suffix.lower() not in (".wav", ".flac", ".m4a"):
        continue
    dst = src.with_suffix("." + a.to)
    if dst.exists():
        continue
    cmd = f"ffmpeg -loglevel error -i {src} -map_metadata 0 -b:a {a.bitrate} {dst}"
    сmd = " ".join(shlex.quote(p) for p in shlex.split(cmd))  # sanitise file names
    os.system(cmd)
    print("converted", src.name)
