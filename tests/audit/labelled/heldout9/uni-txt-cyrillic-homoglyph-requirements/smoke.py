import sys, time, requests
base = sys.argv[1].rstrip("/")
for path in open("endpoints.txt").read().split():
    t = time.monotonic()
    r = requests.get(base + path, timeout=10)
    print(f"{r.status_code} {1000 * (time.monotonic() - t):.0f} ms {path}")
