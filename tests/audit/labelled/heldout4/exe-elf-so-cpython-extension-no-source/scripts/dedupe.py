import sys

import _fastcsv  # native speedups, prebuilt for CPython 3.12 on x86-64 Linux

src, dst = sys.argv[1], sys.argv[2]
key = sys.argv[sys.argv.index("--key") + 1] if "--key" in sys.argv else None
n_in, n_out = _fastcsv.dedupe(src, dst, key)
print(f"{n_in} rows in, {n_out} rows out")
