#!/usr/bin/env python3
"""The trust boundaries' costs, side by side in one run (issue 44):

1. skills/lookup latency over MCP with nothing else in flight, and while a git fetch from a
   server that accepts and never answers is pending (the fetch runs beside the skills queue,
   so the two columns should match);
2. validate_skill of a SKILL.md whose frontmatter has 80,000 keys (refused at the key cap)
   beside an ordinary SKILL.md;
3. validate_kernel of one kernel with allowed options beside the same kernel with none (the
   option allowlist's cost), when a CUDA toolkit is there.

Usage: bench/security/run.py [BUILD_DIR]  (default: build). Prints a table; exits 0."""
import json, os, select, shutil, socket, statistics, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
daemon = os.path.join(build, "daemon", "upskilld")
LOOKUPS = int(os.environ.get("LOOKUPS", "200"))


class Mcp:
    def __init__(self, cwd, env):
        self.p = subprocess.Popen([daemon, "--mcp"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.id = 0
        self.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg).encode() + b"\n")
        self.p.stdin.flush()

    def start(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        return self.id

    def wait(self, want, timeout=120):
        end = time.monotonic() + timeout
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                m = json.loads(line)
                if m.get("id") == want:
                    return m
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                raise TimeoutError(f"no answer to {want}")
            chunk = os.read(self.p.stdout.fileno(), 1 << 16)
            if not chunk:
                raise EOFError("daemon closed stdout")
            self.buf += chunk

    def call(self, method, params, timeout=120):
        return self.wait(self.start(method, params), timeout)

    def tool(self, name, args, timeout=120):
        return self.call("tools/call", {"name": name, "arguments": args}, timeout)

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()


def silent_server():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    held = []
    def accept():
        while True:
            try:
                c, _ = s.accept()
            except OSError:
                return
            held.append(c)  # accepted, never answered
    threading.Thread(target=accept, daemon=True).start()
    return s, held


def lookup_ms(d, n):
    out = []
    for i in range(n):
        t = time.perf_counter()
        r = d.tool("find_skill", {"task": "write a fast CUDA reduction kernel for H100"})
        out.append((time.perf_counter() - t) * 1000)
        assert "result" in r, r
    return out


def fmt(v):
    return f"p50 {statistics.median(v):7.2f} ms   p99 {sorted(v)[int(len(v) * 0.99) - 1]:7.2f} ms"


def main():
    tmp = tempfile.mkdtemp(prefix="upk-bench-sec-")
    try:
        ws, home = os.path.join(tmp, "ws"), os.path.join(tmp, "home")
        os.makedirs(os.path.join(ws, ".claude", "skills"))
        os.makedirs(home)
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"),
                   XDG_STATE_HOME=os.path.join(home, ".state"),
                   XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   UPSKILLD_WORKER_SERVER_IDLE="0", UPSKILLD_FETCH_TIMEOUT="600")
        d = Mcp(ws, env)
        lookup_ms(d, 10)  # the first index and warm caches
        alone = lookup_ms(d, LOOKUPS)
        srv, held = silent_server()
        port = srv.getsockname()[1]
        fetch = d.start("tools/call", {"name": "install_skill",
                                       "arguments": {"from": f"http://127.0.0.1:{port}/x.git"}})
        for _ in range(100):  # until git has connected and waits
            if held:
                break
            time.sleep(0.05)
        during = lookup_ms(d, LOOKUPS)
        d.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": fetch}})
        print(f"skills/lookup, {LOOKUPS} calls over MCP (git connected to a silent server: {bool(held)})")
        print(f"  nothing else in flight:        {fmt(alone)}")
        print(f"  a stalled git fetch pending:   {fmt(during)}")
        srv.close()

        keys = "".join(f"k{i}: v\n" for i in range(80000))
        big = os.path.join(ws, "big"); os.makedirs(big)
        open(os.path.join(big, "SKILL.md"), "w").write(f"---\nname: big\ndescription: d\n{keys}---\n# B\n")
        small = os.path.join(ws, "small"); os.makedirs(small)
        open(os.path.join(small, "SKILL.md"), "w").write("---\nname: small\ndescription: d\n---\n# S\n")
        def validate_ms(path, n=5):
            v = []
            for _ in range(n):
                t = time.perf_counter()
                d.tool("validate_skill", {"path": path})
                v.append((time.perf_counter() - t) * 1000)
            return statistics.median(v)
        print("validate_skill (median of 5)")
        print(f"  an ordinary SKILL.md:             {validate_ms('small'):8.2f} ms")
        print(f"  80,000 frontmatter keys (capped): {validate_ms('big'):8.2f} ms   (was 21 s before the cap)")

        cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
        if os.path.exists(os.path.join(cuda, "include", "nvrtc.h")):
            open(os.path.join(ws, "k.cu"), "w").write(
                "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n")
            opts = ["-maxrregcount=64", "--use_fast_math", "-DX=1", "-lineinfo", "-Xptxas", "-v"]
            def kernel_ms(options, n=10):
                v = []
                for _ in range(n):
                    t = time.perf_counter()
                    r = d.tool("validate_kernel", {"path": "k.cu", "options": options, "cache": False})
                    v.append((time.perf_counter() - t) * 1000)
                    assert not r["result"].get("isError"), r
                return statistics.median(v)
            kernel_ms([], 3)
            print("validate_kernel, no cache (median of 10)")
            print(f"  no options:                       {kernel_ms([]):8.2f} ms")
            print(f"  six allowed options checked:      {kernel_ms(opts):8.2f} ms")
        d.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
