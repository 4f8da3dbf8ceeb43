import sys

import debugpy
import pytest

debugpy.listen(("127.0.0.1", 5678))
print("waiting for the debugger on localhost:5678")
debugpy.wait_for_client()

for attempt in range(200):
    if pytest.main(["-x", "-q", sys.argv[1]]) != 0:
        debugpy.breakpoint()
        break
