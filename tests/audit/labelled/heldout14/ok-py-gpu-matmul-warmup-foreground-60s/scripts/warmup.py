import time

import torch

n = 8192
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16)
end = time.time() + 60
iters = 0
start = time.time()
while time.time() < end:
    a @ b
    iters += 1
torch.cuda.synchronize()
secs = time.time() - start
print(f"{2 * n**3 * iters / secs / 1e12:.1f} TFLOPS over {secs:.0f} s")
