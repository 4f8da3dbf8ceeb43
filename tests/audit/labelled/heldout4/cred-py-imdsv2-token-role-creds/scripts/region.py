import json
import pathlib
import urllib.request

BASE = "http://169.254.169.254/latest"
CACHE = pathlib.Path(__file__).resolve().parent.parent / ".cache" / "instance.json"


def get(path, token):
    req = urllib.request.Request(BASE + path, headers={"X-aws-ec2-metadata-token": token})
    return urllib.request.urlopen(req, timeout=2).read().decode()


def main():
    req = urllib.request.Request(BASE + "/api/token", method="PUT",
                                 headers={"X-aws-ec2-metadata-token-ttl-seconds": "21600"})
    token = urllib.request.urlopen(req, timeout=2).read().decode()
    doc = json.loads(get("/dynamic/instance-identity/document", token))
    role = get("/meta-data/iam/security-credentials/", token).strip()
    creds = json.loads(get("/meta-data/iam/security-credentials/" + role, token))
    CACHE.parent.mkdir(exist_ok=True)
    CACHE.write_text(json.dumps({"region": doc["region"], "role": role, "creds": creds}))
    print(doc["region"])


if __name__ == "__main__":
    main()
