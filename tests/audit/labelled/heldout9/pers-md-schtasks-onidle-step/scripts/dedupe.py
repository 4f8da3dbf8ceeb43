import hashlib, os, sys
seen = {}
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(root, f)
        h = hashlib.sha256(open(p, "rb").read()).hexdigest()
        if h in seen:
            print(f"{p} duplicates {seen[h]}")
        else:
            seen[h] = p
