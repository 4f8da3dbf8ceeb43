import ctypes
import os
import sys

lib = ctypes.CDLL(os.path.join(os.path.dirname(__file__), "..", "native", "libcodec.so"))
lib.fast_diff.restype = ctypes.c_int
sys.exit(lib.fast_diff(sys.argv[1].encode(), sys.argv[2].encode()))
