import hashlib, os, sys
for r, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        print(hashlib.md5(open(os.path.join(r, f), 'rb').read()).hexdigest(), f)
