import sys
import subprocess
import yaml

c = yaml.safe_load(open(sys.argv[1]))
subprocess.run(["aws", "s3", "sync", ".", f"s3://{c['bucket']}/{c['prefix']}"], check=True)
