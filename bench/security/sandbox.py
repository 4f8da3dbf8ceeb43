#!/usr/bin/env python3
"""What the nvcc sandbox (common/sandbox.c, docs/security.md "Sandbox") costs a compile.

validate_kernel over MCP, backend nvcc, no cache, of a file with host code (a launch, cudaMalloc)
and of a device-only file, each with the sandbox (bubblewrap) and without it (the daemon started
with UPK_TEST_NO_SANDBOX=1, which a compile with no options is allowed to run without). Cold: the
first compile of a fresh daemon and worker (the sandbox probe included); warm: the next ones in
the same daemon. The two modes alternate so that load on the machine falls on both alike.
Prints medians of the wall time of the call and of compileMs (the nvcc run).

Usage: bench/security/sandbox.py [BUILD_DIR] (default: build); COLD=3 WARM=5 set the counts."""
import json, os, statistics, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (the Mcp client of bench/security/run.py)

COLD = int(os.environ.get("COLD", "3"))
WARM = int(os.environ.get("WARM", "5"))
HOST = """#include <cstdio>
__global__ void scale(float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}
int main() {
  float *y;
  cudaMalloc(&y, 1024 * sizeof(float));
  scale<<<4, 256>>>(y, 2.f, 1024);
  cudaDeviceSynchronize();
  printf("done\\n");
  return 0;
}
"""
DEVICE = """__global__ void scale(float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}
"""


def one(d, path):
    t0 = time.monotonic()
    r = d.tool("validate_kernel", {"path": path, "backend": "nvcc", "cache": False}, 300)
    wall = (time.monotonic() - t0) * 1e3
    sc = r["result"]["structuredContent"]
    if not sc.get("ok"):
        raise SystemExit(f"{path}: not ok: {json.dumps(sc)[:600]}")
    return wall, sc.get("compileMs", 0.0)


def session(tmp, boxed):
    # HOME beside the project, not it: a daemon started in its user's home has no workspace
    env = dict(os.environ, HOME=os.path.join(tmp, "home"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    env.pop("UPK_TEST_NO_SANDBOX", None)
    if not boxed:
        env["UPK_TEST_NO_SANDBOX"] = "1"
    return common.Mcp(tmp, env)


def main():
    tmp = tempfile.mkdtemp(prefix="upk-sbx-bench-")
    os.makedirs(os.path.join(tmp, "home"))
    files = {"host code": os.path.join(tmp, "host.cu"), "device only": os.path.join(tmp, "dev.cu")}
    for (name, path), text in zip(files.items(), (HOST, DEVICE)):
        with open(path, "w") as f:
            f.write(text)
    res = {(f, b, k): [] for f in files for b in (True, False) for k in ("cold", "warm")}
    for _ in range(COLD):
        for boxed in (True, False):
            for name, path in files.items():
                d = session(tmp, boxed)
                res[(name, boxed, "cold")].append(one(d, path))
                for _ in range(WARM if not res[(name, boxed, "warm")] else 0):
                    res[(name, boxed, "warm")].append(one(d, path))
                d.close()
    print(f"validate_kernel, backend nvcc, no cache; median wall ms / compileMs "
          f"(cold: {COLD} fresh daemons, warm: {WARM} calls)")
    for name in files:
        for kind in ("cold", "warm"):
            cells = []
            for boxed in (True, False):
                v = res[(name, boxed, kind)]
                cells.append((statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)))
            (bw, bc), (nw, nc) = cells
            print(f"  {name:11s} {kind}: sandboxed {bw:7.0f} / {bc:7.0f}   unsandboxed {nw:7.0f} / "
                  f"{nc:7.0f}   cost {100 * (bw - nw) / nw:+5.1f} % wall, "
                  f"{100 * (bc - nc) / nc:+5.1f} % compile")


if __name__ == "__main__":
    main()
