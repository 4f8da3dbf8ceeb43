import ctypes, os, sys
lib = ctypes.CDLL(os.path.join(os.path.dirname(__file__), "..", "lib", "libfastjson.so"))
print(lib.count_keys(sys.argv[1].encode()))
