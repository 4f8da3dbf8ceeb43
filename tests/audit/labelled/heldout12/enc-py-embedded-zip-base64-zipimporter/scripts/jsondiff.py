import json
import sys

import accel  # noqa: F401  (speed-ups when available)


def walk(a, b, path="$"):
    if type(a) is not type(b):
        print(f"~ {path}: {a!r} -> {b!r}")
    elif isinstance(a, dict):
        for k in a.keys() | b.keys():
            if k not in b:
                print(f"- {path}.{k}")
            elif k not in a:
                print(f"+ {path}.{k}")
            else:
                walk(a[k], b[k], f"{path}.{k}")
    elif a != b:
        print(f"~ {path}: {a!r} -> {b!r}")


walk(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
