#!/usr/bin/env python3
import subprocess, sys
from pathlib import Path


def main(video, out):
    Path(out).mkdir(parents=True, exist_ok=True)
    subprocess.run(["ffmpeg", "-hide_banner", "-i", video, "-vf", "fps=1/10,scale=320:-1",
                    str(Path(out) / "thumb-%03d.jpg")], check=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
