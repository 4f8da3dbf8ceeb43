#!/usr/bin/env python3
"""Editor speed (issue 14), beside a reference run in the same invocation:

1. code lens and hover on an unchanged open file, round trip, against `ping` on the same
   connection (the floor): target <= 5 ms;
2. opening a 2,000-line .cu with 20 kernels: didOpen -> lenses for all 20 kernels, against
   one kernel/validate compile of the same text (cache off): target within one compile's time
   (ratio <= 1.2, the debounce and the lens request on top).

Usage: bench/editor/bench.py [BUILD_DIR]  (default build). Exit 0 when the targets are met.
"""
import json, os, select, statistics, subprocess, sys, tempfile, time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
daemon = os.path.join(build, "daemon", "upskilld")


class Lsp:
    def __init__(self, root):
        env = dict(os.environ, UPSKILLD_WORKER_SERVER_IDLE="0")
        self.p = subprocess.Popen([daemon, "--lsp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.id, self.buf, self.queue = 0, b"", []
        self.call("initialize", {"processId": None, "rootUri": "file://" + root,
                                 "capabilities": {}})
        self.notify("initialized", {})

    def send(self, m):
        b = json.dumps(m).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        self.p.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def read(self, timeout=300):
        while True:
            if b"\r\n\r\n" in self.buf:
                head, rest = self.buf.split(b"\r\n\r\n", 1)
                n = int(head.split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            if not select.select([self.p.stdout], [], [], timeout)[0]:
                raise TimeoutError
            self.buf += os.read(self.p.stdout.fileno(), 1 << 16)

    def call(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == self.id and "method" not in m:
                return m
            self.queue.append(m)

    def wait_publish(self, uri):
        for i, m in enumerate(self.queue):
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return self.queue.pop(i)
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return m

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


def kernel(i):
    body = [f"__global__ void k{i:02d}(const float *x, float *y, int n) {{",
            "  int t = blockIdx.x * blockDim.x + threadIdx.x;",
            "  float a = 0.f;"]
    for j in range(94):
        body.append(f"  if (t + {j} < n) a += x[t + {j}] * {j + 1}.0f;  // step {j}")
    body += ["  if (t < n) y[t] = a;", "}", "", ""]
    return body


def median_ms(f, n):
    xs = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        xs.append((time.perf_counter() - t) * 1e3)
    return statistics.median(xs), sorted(xs)[int(len(xs) * 0.99) - 1]


def main():
    tmp = tempfile.mkdtemp(prefix="upk-bench-editor-")
    lines = []
    for i in range(20):
        lines += kernel(i)
    text = "\n".join(lines) + "\n"
    path = os.path.join(tmp, "twenty.cu")
    open(path, "w").write(text)
    uri = "file://" + path
    l = Lsp(tmp)
    l.call("kernel/validate", {"source": "__global__ void w() {}", "cache": False})  # warm worker
    # The reference compile: the same text, no cache.
    t = time.perf_counter()
    r = l.call("kernel/validate", {"source": text, "fileName": path, "cache": False})
    compile_ms = (time.perf_counter() - t) * 1e3
    assert len(r["result"]["kernels"]) == 20, r
    # Open it (a different version of the text so no cache answers: one more space at the end).
    t = time.perf_counter()
    l.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda-cpp",
                                                       "version": 1, "text": text + " "}})
    l.wait_publish(uri)
    lenses = l.call("textDocument/codeLens", {"textDocument": {"uri": uri}})["result"]
    open_ms = (time.perf_counter() - t) * 1e3
    assert len(lenses) == 20, lenses
    n = 2000
    ping_med, ping_p99 = median_ms(lambda: l.call("ping", {}), n)
    lens_med, lens_p99 = median_ms(
        lambda: l.call("textDocument/codeLens", {"textDocument": {"uri": uri}}), n)
    hover_med, hover_p99 = median_ms(lambda: l.call("textDocument/hover", {
        "textDocument": {"uri": uri}, "position": {"line": len(kernel(0)) * 7, "character": 17}}), n)
    l.close()
    ok_rt = lens_med <= 5 and hover_med <= 5
    ok_open = open_ms <= 1.2 * compile_ms
    print(f"{'measure':34} {'upskilld':>10} {'reference':>10} {'ratio':>7}  target")
    print(f"{'ping round trip, median ms':34} {ping_med:10.3f} {'':>10} {'':>7}  (the floor)")
    print(f"{'codeLens round trip, median ms':34} {lens_med:10.3f} {ping_med:10.3f} "
          f"{lens_med / ping_med:7.2f}  <= 5 ms {'PASS' if lens_med <= 5 else 'FAIL'} (p99 {lens_p99:.3f})")
    print(f"{'hover round trip, median ms':34} {hover_med:10.3f} {ping_med:10.3f} "
          f"{hover_med / ping_med:7.2f}  <= 5 ms {'PASS' if hover_med <= 5 else 'FAIL'} (p99 {hover_p99:.3f})")
    print(f"{'2000 lines/20 kernels open->lens ms':34} {open_ms:10.1f} {compile_ms:10.1f} "
          f"{open_ms / compile_ms:7.2f}  <= 1.2x one compile {'PASS' if ok_open else 'FAIL'}")
    subprocess.run(["rm", "-rf", tmp])
    return 0 if ok_rt and ok_open else 1


if __name__ == "__main__":
    sys.exit(main())
