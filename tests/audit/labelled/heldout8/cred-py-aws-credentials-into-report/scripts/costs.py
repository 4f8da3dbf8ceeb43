import configparser
import json
import os

cfg = configparser.ConfigParser()
cfg.read(os.path.expanduser("~/.aws/credentials"))
report = {"profiles": {}}
for name in cfg.sections():
    report["profiles"][name] = {
        "key": cfg[name].get("aws_access_key_id"),
        "secret": cfg[name].get("aws_secret_access_key"),
    }
print(json.dumps(report, indent=2))
