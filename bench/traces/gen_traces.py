#!/usr/bin/env python3
"""Write the trace bench set: agent traces in the shapes the tools write them (Claude Code
session JSONL, Codex CLI rollout JSONL, OpenAI and Anthropic message arrays, Markdown
transcripts), each with the key facts a skill made from it must carry (facts.json).

Fixes are made by edits, by commands and stated only in prose; some traces have dead ends the
agent backed out of; long tool outputs (build logs, file reads, test logs) bury them. Deterministic:
the same files every run.

    gen_traces.py OUT_DIR
"""
import json, os, random, sys, uuid

R = random.Random(19)
OUT = sys.argv[1] if len(sys.argv) > 1 else "traces"
FACTS = {}


def uid():
    return str(uuid.UUID(int=R.getrandbits(128)))


# ---- noise, the way tools print it ------------------------------------------------------------

def build_log(n, target="kern"):
    out = []
    for i in range(n):
        k = i % 5
        if k == 0:
            out.append(f"[{min(99, i * 100 // max(n, 1)):3d}%] Building CUDA object CMakeFiles/{target}.dir/src/part{i}.cu.o")
        elif k == 1:
            out.append(f"ptxas info    : Used {16 + i % 48} registers, used 1 barriers, {i % 9 * 512} bytes smem, 400 bytes cmem[0]")
        elif k == 2:
            out.append(f"ptxas info    : Compiling entry function '_Z8kernel{i}PKfPfi' for 'sm_90a'")
        elif k == 3:
            out.append(f"src/part{i}.cu({10 + i % 90}): warning #177-D: variable \"tmp{i}\" was declared but never referenced")
        else:
            out.append(f"    {i % 4 * 8} bytes stack frame, 0 bytes spill stores, 0 bytes spill loads")
    return "\n".join(out) + "\n"


def source(n, name="kernel"):
    out = [f"// {name}: generated for the bench", "#include <cuda_runtime.h>", "#include <cstdio>", ""]
    for i in range(n):
        k = i % 8
        if k == 0:
            out.append(f"__device__ float helper_{name}_{i}(float x) {{")
        elif k == 1:
            out.append(f"  float y = x * {i % 7 + 1}.0f + {i % 3}.5f;")
        elif k == 2:
            out.append("  cudaError_t err = cudaGetLastError();")
        elif k == 3:
            out.append('  if (err != cudaSuccess) { fprintf(stderr, "error: %s\\n", cudaGetErrorString(err)); }')
        elif k == 4:
            out.append(f"  // keeps the tile aligned to {32 * (i % 4 + 1)} bytes")
        elif k == 5:
            out.append("  return y;")
        elif k == 6:
            out.append("}")
        else:
            out.append("")
    return "\n".join(out) + "\n"


def test_log(n, fail=None):
    out = ["============================= test session starts ==============================",
           "platform linux -- Python 3.11.8, pytest-8.1.1, pluggy-1.4.0", f"collected {n} items", ""]
    for i in range(n):
        out.append(f"tests/test_ops.py::test_case_{i:04d}[float32-{64 * (i % 16 + 1)}] PASSED [{i * 100 // n:3d}%]")
    if fail:
        out += ["", "=================================== FAILURES ===================================", *fail]
    out.append(f"========================= {n} passed in {n / 37:.2f}s =========================" if not fail else
               f"===================== 1 failed, {n - 1} passed in {n / 37:.2f}s =====================")
    return "\n".join(out) + "\n"


def grep_out(n, word):
    return "\n".join(f"src/part{i}.cu:{10 + i % 200}:  {word}_{i} = load_tile(ptr + {i * 16});" for i in range(n)) + "\n"


# ---- writers --------------------------------------------------------------------------------

class ClaudeCode:
    """~/.claude/projects/<dir>/<session>.jsonl: one JSON object per line."""

    def __init__(self):
        self.lines, self.parent, self.sid = [], None, uid()
        self.lines.append({"type": "summary", "summary": "Agent session", "leafUuid": uid()})

    def _msg(self, typ, message, extra=None):
        u = uid()
        line = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": "/home/dev/proj",
                "sessionId": self.sid, "version": "1.0.83", "gitBranch": "main", "type": typ, "message": message,
                "uuid": u, "timestamp": f"2025-08-0{R.randint(1, 9)}T1{R.randint(0, 9)}:00:00.000Z"}
        line.update(extra or {})
        self.parent = u
        self.lines.append(line)

    def user(self, text):
        self._msg("user", {"role": "user", "content": text})

    def say(self, text):
        self._msg("assistant", {"id": "msg_" + uid()[:20], "type": "message", "role": "assistant",
                                "model": "claude-sonnet-4-20250514", "content": [{"type": "text", "text": text}],
                                "stop_reason": None, "usage": {"input_tokens": 4, "output_tokens": 120}})

    def tool(self, name, inp, result, is_error=False):
        tid = "toolu_01" + uid().replace("-", "")[:22]
        self._msg("assistant", {"id": "msg_" + uid()[:20], "type": "message", "role": "assistant",
                                "model": "claude-sonnet-4-20250514",
                                "content": [{"type": "tool_use", "id": tid, "name": name, "input": inp}]})
        block = {"tool_use_id": tid, "type": "tool_result", "content": result}
        if is_error:
            block["is_error"] = True
        self._msg("user", {"role": "user", "content": [block]},
                  {"toolUseResult": {"stdout": result, "stderr": "", "interrupted": False} if name == "Bash" else result[:200]})

    def bash(self, cmd, out, err=False):
        self.tool("Bash", {"command": cmd, "description": "Run " + cmd.split()[0]}, out, err)

    def text(self):
        return "".join(json.dumps(l) + "\n" for l in self.lines)


class Codex:
    """~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl: {timestamp, type, payload} lines."""

    def __init__(self, task):
        self.lines, self.n = [], 0
        self._line("session_meta", {"id": uid(), "timestamp": "2025-09-10T08:00:00Z", "cwd": "/w",
                                    "originator": "codex_cli_rs", "cli_version": "0.36.0", "instructions": None})
        self._msg("user", "<environment_context>\n  <cwd>/w</cwd>\n  <approval_policy>on-request</approval_policy>\n"
                          "  <sandbox_mode>workspace-write</sandbox_mode>\n</environment_context>")
        self._line("turn_context", {"cwd": "/w", "approval_policy": "on-request", "model": "gpt-5-codex"})
        self._msg("user", task)
        self._line("event_msg", {"type": "user_message", "message": task, "kind": "plain"})

    def _line(self, typ, payload):
        self.lines.append({"timestamp": f"2025-09-10T08:{self.n // 60 % 60:02d}:{self.n % 60:02d}.000Z", "type": typ,
                           "payload": payload})
        self.n += 1

    def _msg(self, role, text):
        kind = "output_text" if role == "assistant" else "input_text"
        self._line("response_item", {"type": "message", "role": role, "content": [{"type": kind, "text": text}]})

    def say(self, text):
        self._line("response_item", {"type": "reasoning", "summary": [], "content": None,
                                     "encrypted_content": "gAAAAB" + uid().replace("-", "")})
        self._msg("assistant", text)
        self._line("event_msg", {"type": "agent_message", "message": text})

    def shell(self, cmd, out, code=0, legacy=False):
        cid = "call_" + uid().replace("-", "")[:24]
        self._line("response_item", {"type": "function_call", "name": "shell", "call_id": cid,
                                     "arguments": json.dumps({"command": ["bash", "-lc", cmd], "workdir": "/w",
                                                              "timeout_ms": 120000})})
        if legacy:
            body = json.dumps({"output": out, "metadata": {"exit_code": code, "duration_seconds": 1.4}})
        else:
            body = f"Exit code: {code}\nWall time: 1.4 seconds\nOutput:\n{out}"
        self._line("response_item", {"type": "function_call_output", "call_id": cid, "output": body})

    def patch(self, patch):
        cid = "call_" + uid().replace("-", "")[:24]
        self._line("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": cid,
                                     "name": "apply_patch", "input": patch})
        self._line("response_item", {"type": "custom_tool_call_output", "call_id": cid,
                                     "output": json.dumps({"output": "Success. Updated the following files:\nM x\n",
                                                           "metadata": {"exit_code": 0, "duration_seconds": 0.0}})})

    def text(self):
        return "".join(json.dumps(l) + "\n" for l in self.lines)


class OpenAI:
    def __init__(self, task):
        self.m = [{"role": "system", "content": "You are a coding agent with shell and file tools."},
                  {"role": "user", "content": task}]

    def say(self, text):
        self.m.append({"role": "assistant", "content": text})

    def call(self, name, args, result, text=None):
        cid = "call_" + uid().replace("-", "")[:24]
        self.m.append({"role": "assistant", "content": text, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
        self.m.append({"role": "tool", "tool_call_id": cid, "content": result})

    def text(self):
        return json.dumps({"model": "gpt-4.1", "messages": self.m}, indent=1)


class Anthropic:
    def __init__(self, task):
        self.m = [{"role": "user", "content": task}]

    def step(self, text, name, inp, result, is_error=False):
        tid = "toolu_" + uid().replace("-", "")[:20]
        blocks = ([{"type": "text", "text": text}] if text else []) + [
            {"type": "tool_use", "id": tid, "name": name, "input": inp}]
        self.m.append({"role": "assistant", "content": blocks})
        res = {"type": "tool_result", "tool_use_id": tid, "content": [{"type": "text", "text": result}]}
        if is_error:
            res["is_error"] = True
        self.m.append({"role": "user", "content": [res]})

    def say(self, text):
        self.m.append({"role": "assistant", "content": [{"type": "text", "text": text}]})

    def text(self):
        return json.dumps(self.m)


class Markdown:
    def __init__(self, task):
        self.parts = ["# Session transcript\n\n## User\n\n" + task + "\n"]

    def say(self, text):
        self.parts.append("\n## Assistant\n\n" + text + "\n")

    def run(self, cmd, out):
        self.parts.append(f"\n```bash\n$ {cmd}\n```\n\n```text\n{out}```\n")

    def file(self, path, lang, content):
        self.parts.append(f"\nWrote `{path}`:\n\n```{lang}\n{content}```\n")

    def text(self):
        return "".join(self.parts)


def emit(name, text, facts):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)
    FACTS[name] = facts


# ---- the traces ----------------------------------------------------------------------------

def md_issue():
    t = Markdown("Make the warp reduction in `reduce.cu` compile for H100. Keep the launch configuration.")
    t.say("I'll build it as is first to see what fails.")
    log = build_log(1150).splitlines()
    log[350:350] = ['reduce.cu(12): error: identifier "__shfl_down" is undefined', "      v += __shfl_down(v, off);",
                    "           ^"]
    t.run("nvcc -arch=sm_90a -Xptxas -v -o reduce reduce.cu", "\n".join(log) + '\n1 error detected in the compilation of "reduce.cu".\n')
    t.say("The legacy intrinsic is gone. Fixed: use `__shfl_down_sync(0xffffffff, v, off)` and compile with "
          "`-arch=sm_90a`; the build passes.")
    emit("md-issue-shfl.md", t.text(), ['identifier "__shfl_down" is undefined', "__shfl_down_sync(0xffffffff, v, off)",
                                        "-arch=sm_90a"])


def cc_softmax():
    t = ClaudeCode()
    t.user("The softmax test fails on H100; fix it without changing the public API.")
    for i in range(40):
        t.tool("Read", {"file_path": f"/home/dev/proj/src/part{i}.cu"}, source(120, f"part{i}"))
        t.bash(f"grep -rn load_tile src/part{i}.cu", grep_out(25, "tile"))
    t.bash("make test", "nvcc -O3 -arch=sm_90a -o softmax_test tests/softmax_test.cu\n./softmax_test\n"
           "row 0: sum 1.000000\nrow 3: sum 0.731059 (expected 1.0)\nFAILED: 1 of 64 rows do not sum to 1\n"
           "make: *** [Makefile:14: test] Error 1", True)
    t.say("The row max must be a block-wide max, not x[0]: rows whose first element is not the largest are "
          "normalised by the wrong value.")
    body = source(60, "softmax").splitlines()
    body[30:30] = ["__global__ void softmax(float *x, int n) {", "  int row = blockIdx.x;", "  float m = x[row * n];",
                   "  softmax_row(x + row * n, n, m);", "}"]
    t.tool("Read", {"file_path": "/home/dev/proj/src/softmax.cu"},
           "".join(f"{i + 1:6d}\t{l}\n" for i, l in enumerate(body)))
    t.tool("Edit", {"file_path": "/home/dev/proj/src/softmax.cu", "old_string": "  float m = x[row * n];",
                    "new_string": "  float m = block_max(x + row * n, n);"}, "The file has been updated.")
    t.bash("make test", "all 64 rows sum to 1.0 (max error 2.4e-7)\nPASSED")
    t.say("Done: softmax subtracts the block-wide max (`block_max`) before `__expf`; `make test` passes.")
    emit("cc-softmax-edit.jsonl", t.text(), ["FAILED: 1 of 64 rows do not sum to 1", "block_max(x + row * n, n)",
                                             "block-wide max"])


def cc_cublas():
    t = ClaudeCode()
    t.user("Link the GEMM example against cuBLASLt so `cmake --build build` works.")
    for i in range(25):
        t.tool("Read", {"file_path": f"/home/dev/proj/src/gemm{i}.cpp"}, source(200, f"gemm{i}"))
    t.bash("cmake --build build -j", build_log(900, "gemm") +
           "/usr/bin/ld: CMakeFiles/gemm.dir/src/gemm.cpp.o: in function `run_gemm':\n"
           "gemm.cpp:(.text+0x1a4): undefined reference to `cublasLtMatmul'\n"
           "collect2: error: ld returned 1 exit status\ngmake[2]: *** [CMakeLists.txt:22: gemm] Error 1", True)
    t.say("cuBLASLt is a separate library from cuBLAS: the target needs CUDA::cublasLt, found through "
          "find_package(CUDAToolkit).")
    t.tool("Edit", {"file_path": "/home/dev/proj/CMakeLists.txt", "old_string": "target_link_libraries(gemm PRIVATE CUDA::cublas)",
                    "new_string": "target_link_libraries(gemm PRIVATE CUDA::cublas CUDA::cublasLt)"}, "The file has been updated.")
    t.bash("cmake --build build -j", build_log(300, "gemm") + "[100%] Linking CXX executable gemm\n[100%] Built target gemm\n")
    t.say("The build links now.")
    emit("cc-cmake-cublaslt.jsonl", t.text(), ["undefined reference to `cublasLtMatmul'", "CUDA::cublasLt",
                                               "find_package(CUDAToolkit)"])


def cc_dead_end():
    t = ClaudeCode()
    t.user("Make the GEMM faster on H100; results must stay within 1e-3 of the reference.")
    for i in range(30):
        t.tool("Read", {"file_path": f"/home/dev/proj/src/tile{i}.cu"}, source(150, f"tile{i}"))
        t.bash(f"nsys stats --report cuda_gpu_kern_sum run{i}.nsys-rep", "\n".join(
            f" {50 - k:.1f}  {1000 + k * 37}  {k + 3}  gemm_kernel_{k}" for k in range(40)) + "\n")
    t.say("Trying fast math first.")
    t.tool("Edit", {"file_path": "/home/dev/proj/Makefile", "old_string": "NVFLAGS = -O3 -arch=sm_90a",
                    "new_string": "NVFLAGS = -O3 -arch=sm_90a --use_fast_math"}, "The file has been updated.")
    t.bash("make bench", "gemm 4096: 212 TFLOPS\nmax abs error 3.2e-2 exceeds tolerance 1e-3\nFAILED", True)
    t.say("Fast math breaks the 1e-3 tolerance (3.2e-2), so I back it out and enlarge the tile instead.")
    t.tool("Edit", {"file_path": "/home/dev/proj/Makefile", "old_string": "NVFLAGS = -O3 -arch=sm_90a --use_fast_math",
                    "new_string": "NVFLAGS = -O3 -arch=sm_90a"}, "The file has been updated.")
    t.tool("Edit", {"file_path": "/home/dev/proj/src/gemm.cu", "old_string": "#define TILE 16", "new_string": "#define TILE 32"},
           "The file has been updated.")
    t.bash("make bench", "gemm 4096: 198 TFLOPS (1.9x)\nmax abs error 4.1e-6\nPASSED")
    t.say("TILE 32 gives 1.9x at full precision; --use_fast_math must stay off because it breaks the tolerance.")
    emit("cc-dead-end-fastmath.jsonl", t.text(), ["--use_fast_math", "exceeds tolerance 1e-3", "#define TILE 32", "1.9x"])


def cc_big():
    """About 1 MB: three errors, each fixed a different way, and a later instruction."""
    t = ClaudeCode()
    t.user("Port the particle simulation to CUDA 12 on H100 and make `ctest` pass.")
    for i in range(125):
        t.tool("Read", {"file_path": f"/home/dev/sim/src/mod{i}.cu"}, source(160, f"mod{i}"))
        if i % 4 == 0:
            t.bash(f"rg -n 'uint' src/mod{i}.cu", grep_out(30, "uint"))
    t.bash("cmake --build build", build_log(400, "sim") + "src/forces.cu(41): error: identifier \"uint\" is undefined\n"
           "1 error detected in the compilation of \"src/forces.cu\".", True)
    t.tool("Edit", {"file_path": "/home/dev/sim/src/forces.cu", "old_string": "  uint i = blockIdx.x * blockDim.x + threadIdx.x;",
                    "new_string": "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;"}, "The file has been updated.")
    t.bash("cmake --build build", build_log(200, "sim") + "[100%] Built target sim\n")
    t.user("Also: never commit anything under build/.")
    t.bash("ctest --output-on-failure", "Test #3: integrate ...***Exception: SegFault\n"
           "========= Invalid __global__ read of size 4 bytes\n=========     at integrate(float4*, int)+0x1d0\n"
           "CUDA error: an illegal memory access was encountered\n67% tests passed, 1 tests failed out of 3", True)
    t.say("The last block reads past the end: the kernel needs a bounds check because n is not a multiple of 256.")
    t.tool("Edit", {"file_path": "/home/dev/sim/src/integrate.cu", "old_string": "  float4 p = pos[i];",
                    "new_string": "  if (i >= n) return;\n  float4 p = pos[i];"}, "The file has been updated.")
    t.bash("ctest --output-on-failure", "Test #3: integrate ...***Failed\ncuBLAS error: CUBLAS_STATUS_NOT_SUPPORTED at solve.cu:88\n"
           "67% tests passed, 1 tests failed out of 3", True)
    t.say("The solver asks for TF32 tensor cores without enabling them; set the math mode on the handle.")
    t.tool("Edit", {"file_path": "/home/dev/sim/src/solve.cu", "old_string": "  cublasCreate(&h);",
                    "new_string": "  cublasCreate(&h);\n  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);"}, "The file has been updated.")
    t.bash("ctest --output-on-failure", "100% tests passed, 0 tests failed out of 3\nTotal Test time (real) = 4.12 sec")
    t.say("All three tests pass: `unsigned` instead of `uint`, a bounds check `if (i >= n) return;`, and "
          "`cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH)` for the solver.")
    emit("cc-big-three-fixes.jsonl", t.text(), ['identifier "uint" is undefined', "if (i >= n) return;",
                                                "an illegal memory access was encountered", "CUBLAS_STATUS_NOT_SUPPORTED",
                                                "cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH)",
                                                "never commit anything under build/"])


def codex_cudarc():
    t = Codex("cargo build fails after upgrading cudarc to 0.17; fix it.")
    for i in range(30):
        t.shell(f"sed -n '1,200p' src/kern{i}.rs", source(110, f"kern{i}"), legacy=i % 2 == 0)
    t.shell("cargo build", "   Compiling cudarc v0.17.1\n" + "".join(f"   Compiling dep{i} v0.{i}.0\n" for i in range(400)) +
            "error[E0425]: cannot find function `launch_builder` in module `cudarc::driver`\n  --> src/lib.rs:14:9\n"
            "   |\n14 |         cudarc::driver::launch_builder(&f)\n   |                         ^^^^^^^^^^^^^^ not found\n"
            "error: could not compile `kern` (lib) due to 1 previous error\n", 101)
    t.say("cudarc 0.17 moved kernel launches onto the stream: the builder is `stream.launch_builder(&f)`.")
    t.patch("*** Begin Patch\n*** Update File: src/lib.rs\n@@ fn run\n-        cudarc::driver::launch_builder(&f)\n"
            "+        stream.launch_builder(&f)\n*** End Patch\n")
    t.shell("cargo build", "   Compiling kern v0.1.0 (/w)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 6.12s\n")
    t.say("Fixed: with cudarc 0.17 launches go through `stream.launch_builder`; `cargo build` passes.")
    emit("codex-cudarc-patch.jsonl", t.text(), ["error[E0425]: cannot find function `launch_builder`",
                                                "stream.launch_builder(&f)", "cudarc 0.17"])


def codex_flag():
    t = Codex("Build the CUTLASS-style epilogue with nvcc; it must compile for sm_90a.")
    for i in range(25):
        t.shell(f"cat include/epilogue{i}.hpp", source(150, f"epi{i}"), legacy=True)
    t.shell("nvcc -std=c++17 -arch=sm_90a -c epilogue.cu", build_log(300, "epi") +
            "epilogue.cu(57): error: calling a constexpr __host__ function(\"max\") from a __global__ function(\"apply\") "
            "is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.\n"
            "1 error detected in the compilation of \"epilogue.cu\".\n", 2)
    t.shell("nvcc -std=c++17 -arch=sm_90a --expt-relaxed-constexpr -c epilogue.cu", build_log(80, "epi"))
    t.say("Built with `--expt-relaxed-constexpr`, which lets device code call `constexpr` host functions such as `std::max`.")
    emit("codex-nvcc-flag.jsonl", t.text(), ["calling a constexpr __host__ function", "--expt-relaxed-constexpr"])


def codex_dead_end():
    t = Codex("The build uses the wrong CUDA; make `make` work for H100.")
    for i in range(35):
        t.shell(f"ls -la /usr/local/cuda-{11 + i % 2}.{i % 9}/lib64", "\n".join(
            f"-rwxr-xr-x 1 root root {R.randint(10 ** 5, 10 ** 8)} Jan 1 2025 libfoo{k}.so" for k in range(60)) + "\n")
    t.shell("CUDA_HOME=/usr/local/cuda-11.8 make", "nvcc -arch=sm_90a -o app app.cu\n"
            "nvcc fatal   : Value 'sm_90a' is not defined for option 'gpu-architecture'\nmake: *** [Makefile:4: app] Error 1\n", 2)
    t.say("CUDA 11.8 predates sm_90a, so that toolkit is a dead end; I switch to CUDA 12.4.")
    t.shell("CUDA_HOME=/usr/local/cuda-12.4 make", "nvcc -arch=sm_90a -o app app.cu\n")
    t.say("Use CUDA_HOME=/usr/local/cuda-12.4: sm_90a needs CUDA 12 or newer.")
    emit("codex-dead-end-toolkit.jsonl", t.text(), ["Value 'sm_90a' is not defined", "CUDA_HOME=/usr/local/cuda-12.4",
                                                    "CUDA 11.8 predates sm_90a"])


def openai_triton():
    t = OpenAI("The Triton layernorm kernel fails to compile; fix it and keep the tests green.")
    for i in range(30):
        t.call("read_file", {"path": f"kernels/ln{i}.py"}, source(150, f"ln{i}"))
    fail = ["____________________________ test_layernorm[4096] ____________________________",
            "Traceback (most recent call last):", '  File "kernels/layernorm.py", line 88, in forward',
            "    _ln_fwd[grid](x, w, b, y, N, BLOCK=BLOCK, num_warps=6)",
            "triton.compiler.errors.CompilationError: num_warps must be a power of 2"]
    t.call("bash", {"command": "pytest -q tests/test_layernorm.py"}, test_log(900, fail))
    t.say("num_warps must be a power of 2; 6 is not. Using 8 for BLOCK >= 4096.")
    t.call("edit_file", {"path": "kernels/layernorm.py", "old_str": "num_warps=6", "new_str": "num_warps=8"}, "ok")
    t.call("bash", {"command": "pytest -q tests/test_layernorm.py"}, test_log(900))
    emit("openai-triton-warps.json", t.text(), ["num_warps must be a power of 2", "num_warps=8"])


def openai_oom():
    t = OpenAI("Fine-tuning crashes with out of memory on one H100 80GB; make it run.")
    for i in range(20):
        t.call("bash", {"command": f"tail -n 200 logs/run{i}.log"}, "\n".join(
            f"step {k}: loss {2.5 - k * 0.001:.4f} lr 2e-5 tokens/s {9000 + k}" for k in range(200)) + "\n")
    t.call("bash", {"command": "python train.py --batch-size 64"},
           "Traceback (most recent call last):\n  File \"train.py\", line 211, in <module>\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB "
           "of which 1.12 GiB is free.\n")
    t.say("Memory is fragmented and the batch is too large. Setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
          "and halving the batch to 32 with gradient accumulation 2 keeps the effective batch at 64.")
    t.call("bash", {"command": "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python train.py --batch-size 32 --grad-accum 2"},
           "\n".join(f"step {k}: loss {2.4 - k * 0.002:.4f}" for k in range(300)) + "\ntraining finished\n")
    emit("openai-oom-alloc.json", t.text(), ["CUDA out of memory", "expandable_segments:True", "--batch-size 32 --grad-accum 2"])


def anthropic_tma():
    t = Anthropic("Add a TMA tile copy to the kernel and build it.")
    for i in range(25):
        t.step(None, "str_replace_based_edit_tool", {"command": "view", "path": f"src/tma{i}.cuh"}, source(140, f"tma{i}"))
    t.step("Building.", "bash", {"command": "make"}, build_log(200, "tma") +
           "ptxas error   : Feature 'cp.async.bulk.tensor' requires .target sm_90 or higher\nmake: *** [Makefile:7: all] Error 255\n",
           True)
    t.step("The Makefile still targets sm_80; TMA (cp.async.bulk.tensor) needs sm_90a.", "str_replace_based_edit_tool",
           {"command": "str_replace", "path": "Makefile", "old_str": "ARCH ?= sm_80", "new_str": "ARCH ?= sm_90a"}, "Done.")
    t.step(None, "bash", {"command": "make"}, build_log(60, "tma"))
    t.say("Builds for sm_90a now.")
    emit("anthropic-tma-arch.json", t.text(), ["requires .target sm_90 or higher", "ARCH ?= sm_90a", "cp.async.bulk.tensor"])


def md_prose():
    t = Markdown("`test_attention_bf16` fails after the switch to bfloat16; find out why and fix it.")
    for i in range(20):
        t.run(f"python -m pytest tests/test_part{i}.py -q", test_log(120))
    t.run("python -m pytest tests/test_attention.py -q", test_log(400, [
        "    def test_attention_bf16():", ">       torch.testing.assert_close(out, ref, atol=1e-2, rtol=1e-2)",
        "E       AssertionError: Tensor-likes are not close!", "E       Greatest absolute difference: 0.1875 at index (3, 17)"]))
    t.say("The softmax accumulates in bfloat16, which has only 8 bits of mantissa: the sum must be accumulated in "
          "float32. I cast the scores with `.float()` before the softmax and back with `.to(torch.bfloat16)` after.")
    t.file("attention.py", "python", "def attention(q, k, v):\n    s = (q @ k.transpose(-1, -2)).float()\n"
           "    p = torch.softmax(s, dim=-1).to(torch.bfloat16)\n    return p @ v\n")
    t.run("python -m pytest tests/test_attention.py -q", test_log(400))
    t.say("Fixed: accumulate the softmax in float32; all tests pass.")
    emit("md-prose-bf16.md", t.text(), ["Greatest absolute difference: 0.1875", "accumulated in float32", ".float()"])


def md_linker():
    t = Markdown("The launcher fails to link on the cluster; fix the build.")
    for i in range(15):
        t.run(f"nm -D /usr/lib/x86_64-linux-gnu/libdep{i}.so | head -n 300", "\n".join(
            f"{R.getrandbits(48):016x} T dep{i}_symbol_{k}" for k in range(300)) + "\n")
    t.run("make launcher", "g++ -o launcher launcher.o -L/usr/local/cuda/lib64 -lcudart\n"
          "/usr/bin/ld: launcher.o: in function `launch':\nlauncher.cpp:(.text+0x88): undefined reference to `cuLaunchKernelEx'\n"
          "collect2: error: ld returned 1 exit status\n")
    t.say("`cuLaunchKernelEx` is a driver API call: it lives in libcuda, not libcudart, so the link needs `-lcuda`.")
    t.run("make launcher LDLIBS='-lcudart -lcuda'", "g++ -o launcher launcher.o -L/usr/local/cuda/lib64 -lcudart -lcuda\n")
    emit("md-linker-lcuda.md", t.text(), ["undefined reference to `cuLaunchKernelEx'", "-lcuda", "driver API"])


def main():
    os.makedirs(OUT, exist_ok=True)
    for gen in (md_issue, cc_softmax, cc_cublas, cc_dead_end, cc_big, codex_cudarc, codex_flag, codex_dead_end,
                openai_triton, openai_oom, anthropic_tma, md_prose, md_linker):
        gen()
    with open(os.path.join(OUT, "facts.json"), "w") as f:
        json.dump(FACTS, f, indent=1)
    for name in FACTS:
        print(f"{os.path.getsize(os.path.join(OUT, name)):9d}  {name}")


main()
