import collections
import subprocess
import sys

out = subprocess.run(["git", "blame", "--line-porcelain", "--", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
authors = collections.Counter(l[7:] for l in out.splitlines() if l.startswith("author "))
for name, n in authors.most_common(5):
    print(f"{n:5} {name}")
