#!/usr/bin/env python3
"""Plain timings to check upskilld's PyTorch-reference speedups against
(issue 15: "the speedups match a plain torch.cuda.Event timing of the same
kernel and of PyTorch eager within 5 %"). For one KernelBench problem and its
kernel + run spec: compiles the kernel with NVRTC (ctypes), loads it with the
Driver API into torch's context, launches it on torch's current stream with
the problem's own tensors, and times it and eager PyTorch with
torch.cuda.Event, an L2 flush before each timed run, warmup and iterations as
in the spec. Prints one JSON line: kernelMs, eagerMs, speedup (medians).

With --compile, torch.compile(model) too (compileMs, compileSpeedup).

usage: crosscheck.py PROBLEM.py KERNEL.cu SPEC.json [--cuda /usr/local/cuda] [--compile]"""
import argparse
import ctypes
import importlib.util
import json
import os
import statistics
import sys


def load(path, overrides):
    spec = importlib.util.spec_from_file_location("problem", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for k, v in overrides.items():
        setattr(mod, k, v)
    return mod


def check(rc, what):
    if rc:
        raise RuntimeError(f"{what} failed: {rc}")


def cubin_of(cuda_root, source, name, arch):
    nvrtc = ctypes.CDLL(os.path.join(cuda_root, "lib64", "libnvrtc.so"))
    prog = ctypes.c_void_p()
    check(nvrtc.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"kernel.cu", 0, None,
                                   None), "nvrtcCreateProgram")
    opts = [f"-arch={arch}".encode(), b"-std=c++17"]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = nvrtc.nvrtcCompileProgram(prog, len(opts), arr)
    if rc:
        n = ctypes.c_size_t()
        nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
        log = ctypes.create_string_buffer(n.value)
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise RuntimeError(log.value.decode())
    n = ctypes.c_size_t()
    check(nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(n)), "nvrtcGetCUBINSize")
    buf = ctypes.create_string_buffer(n.value)
    check(nvrtc.nvrtcGetCUBIN(prog, buf), "nvrtcGetCUBIN")
    return buf


def dims(v):
    v = v if isinstance(v, list) else [v]
    return (v + [1, 1, 1])[:3]


def time_fn(torch, fn, warmup, iterations):
    props = torch.cuda.get_device_properties(0)
    flush = torch.empty(max(256 << 20, 2 * getattr(props, "L2_cache_size", 0)),
                        dtype=torch.uint8, device="cuda")
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ms = []
    for i in range(iterations):
        flush.fill_(i & 0xFF)
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        ms.append(a.elapsed_time(b))
    return statistics.median(ms)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("problem")
    p.add_argument("kernel")
    p.add_argument("spec")
    p.add_argument("--cuda", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    p.add_argument("--compile", action="store_true", help="also time torch.compile(model)")
    a = p.parse_args()
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    doc = json.load(open(a.spec))
    run = doc.get("run", doc)
    py = run.get("reference", {}).get("pytorch", {})
    mod = load(a.problem, py.get("globals", {}))
    torch.manual_seed(py.get("seed", 42))
    init = mod.get_init_inputs()
    torch.manual_seed(py.get("seed", 42))
    model = mod.Model(*init).cuda()
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in mod.get_inputs()]
    with torch.no_grad():
        out = model(*inputs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    params = dict(list(model.named_parameters()) + list(model.named_buffers()))
    major, minor = torch.cuda.get_device_capability()
    cubin = cubin_of(a.cuda, open(a.kernel).read(), run["kernel"],
                     f"sm_{major}{minor}{'a' if (major, minor) == (9, 0) else ''}")
    cu = ctypes.CDLL("libcuda.so.1")
    mod_h, fn = ctypes.c_void_p(), ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod_h), cubin), "cuModuleLoadData")
    check(cu.cuModuleGetFunction(ctypes.byref(fn), mod_h, run["kernel"].encode()),
          "cuModuleGetFunction")
    ctypes_of = {"f32": ctypes.c_float, "f64": ctypes.c_double, "i32": ctypes.c_int32,
                 "i64": ctypes.c_int64, "u32": ctypes.c_uint32, "i8": ctypes.c_int8,
                 "u8": ctypes.c_uint8}
    vals = []
    for arg in run["args"]:
        f = arg.get("from")
        if f is None:
            vals.append(ctypes_of[arg["dtype"]](arg["value"]))
            continue
        if f.startswith("param:"):
            t = params[f[6:]]
        elif f.startswith("input"):
            t = inputs[int(f[5:])]
        else:
            t = torch.empty_like(outs[int(f[6:] or 0)])
        vals.append(ctypes.c_uint64(t.contiguous().data_ptr()))
    ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p)
                                            for v in vals])
    g, b = dims(run["grid"]), dims(run["block"])
    smem = run.get("sharedBytes", 0)

    def launch():
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        check(cu.cuLaunchKernel(fn, *g, *b, smem, stream, ptrs, None), "cuLaunchKernel")

    warm, it = run.get("warmup", 3), run.get("iterations", 20)
    kernel_ms = time_fn(torch, launch, warm, it)
    with torch.no_grad():
        eager_ms = time_fn(torch, lambda: model(*inputs), warm, it)
    res = {"kernelMs": kernel_ms, "eagerMs": eager_ms, "speedup": eager_ms / kernel_ms}
    if a.compile:
        compiled = torch.compile(model)
        with torch.no_grad():
            res["compileMs"] = time_fn(torch, lambda: compiled(*inputs), warm + 2, it)
        res["compileSpeedup"] = res["compileMs"] / kernel_ms
    print(json.dumps(res))


if __name__ == "__main__":
    sys.exit(main())
