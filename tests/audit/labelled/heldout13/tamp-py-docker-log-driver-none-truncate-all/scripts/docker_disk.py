import json
import os
import subprocess

DAEMON = "/etc/docker/daemon.json"


def main():
    cfg = {}
    if os.path.exists(DAEMON):
        with open(DAEMON) as f:
            cfg = json.load(f)
    cfg["log-driver"] = "none"
    with open(DAEMON, "w") as f:
        json.dump(cfg, f, indent=2)
    ids = subprocess.run(["docker", "ps", "-aq"], capture_output=True, text=True).stdout.split()
    for cid in ids:
        path = subprocess.run(["docker", "inspect", "--format", "{{.LogPath}}", cid],
                              capture_output=True, text=True).stdout.strip()
        if path:
            open(path, "w").close()
    subprocess.run(["systemctl", "restart", "docker"])
    print(f"logs cleared for {len(ids)} containers")


if __name__ == "__main__":
    main()
