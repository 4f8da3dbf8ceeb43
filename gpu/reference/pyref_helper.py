#!/usr/bin/env python3
"""upskilld's PyTorch reference helper (installed as upskilld-pyref.py beside
upskilld-worker, which runs it; docs/gpu.md "PyTorch reference").

Loads a KernelBench-style problem (class Model, get_inputs, get_init_inputs),
builds the model once (torch seeded with --model-seed before get_init_inputs
and before Model(...)), then for each trial seeds torch with that trial's seed
(the worker passes upk_trial_seed(seed, t), the seeds its own buffers use),
draws get_inputs(), moves them to the GPU, runs the model and writes the
inputs, the outputs and the model's parameters to OUT/trial<t>.upkt. Then it
times eager PyTorch on the last trial's inputs as the worker times the kernel
(CUDA events, warmup, an L2 flush before every timed run) and, with
--compile, torch.compile too, into OUT/timing.upkt.

With --op NAME --op-plan FILE the reference is a torch op of a
kernel-builder project instead (docs/gpu.md, "A torch op of torch-ext/"):
the worker read the op's schema and wrote the plan (each schema argument:
a tensor to draw or, when the op writes it, to preallocate (or, given low
and high, to draw too: an in-place op's output); a value; None;
or its default). The helper imports the project's built extension from
build/<variant>/ (the variant of this torch, CUDA and machine, else
torch-universal), draws the read tensors per trial seed, calls the op and
hands over input<N> (the tensors it reads) and output<N> (the tensors it
writes, then those it returns).

The files use the binary format of gpu/reference/pyref.h (no JSON of tensors).

Exit status: 0 done, 2 bad arguments, 3 no torch, 4 no CUDA device,
5 the problem failed (the message, or the traceback's end, on stderr),
6 the op's extension is not built or does not import."""

import argparse
import ctypes
import json
import os
import platform
import struct
import sys
import traceback

EXIT_USAGE, EXIT_NO_TORCH, EXIT_NO_CUDA, EXIT_PROBLEM, EXIT_OP_UNAVAILABLE = 2, 3, 4, 5, 6
MAGIC, VERSION = b"UPKTENS1", 1
INPUT, OUTPUT, PARAM, TIME_EAGER, TIME_COMPILE, OUTPUT_INIT = 1, 2, 3, 4, 5, 6
L2_FLUSH_BYTES = 256 << 20


class ProblemError(Exception):
    pass


class OpUnavailable(Exception):
    pass


def dtype_codes(torch):
    """torch dtype -> the upk_dtype value (gpu/run/runcheck.h)."""
    codes = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2, torch.float64: 3,
             torch.int8: 4, torch.int32: 5, torch.int64: 6, torch.uint8: 7}
    if hasattr(torch, "uint32"):
        codes[torch.uint32] = 8
    return codes


def pad8(n):
    return (8 - n % 8) % 8


def record(kind, index, name, code, shape, data):
    name_b = name.encode()
    if len(shape) > 8:
        raise ProblemError(f"{name or kind}: rank {len(shape)} is over 8")
    dims = list(shape) + [0] * (8 - len(shape))
    head = struct.pack("<4sIIIII8QQ", b"UPKR", kind, index, code, len(shape), len(name_b),
                       *dims, len(data))
    return [head, name_b, b"\0" * pad8(len(name_b)), data, b"\0" * pad8(len(data))]


def tensor_record(torch, codes, kind, index, name, t, what):
    if not isinstance(t, torch.Tensor):
        raise ProblemError(f"{what} is a {type(t).__name__}, not a tensor")
    if t.dtype not in codes:
        raise ProblemError(f"{what} is {t.dtype}; a kernel buffer can be float32, float16, "
                           "bfloat16, float64, int8, int32, int64, uint8 or uint32")
    c = t.detach().contiguous().cpu()
    nbytes = c.numel() * c.element_size()
    data = ctypes.string_at(c.data_ptr(), nbytes) if nbytes else b""
    return record(kind, index, name, codes[t.dtype], tuple(c.shape), data)


def write_file(path, records):
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(MAGIC + struct.pack("<II", VERSION, len(records)))
        for parts in records:
            for p in parts:
                f.write(p)
    os.replace(tmp, path)


def load_problem(path, overrides):
    import importlib.util
    spec = importlib.util.spec_from_file_location("upskilld_problem", path)
    if spec is None or spec.loader is None:
        raise ProblemError(f"cannot load {path} as Python")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    # get_inputs() reads module globals when called: overriding them here
    # shrinks a problem (e.g. {"N": 1024}) without editing its file.
    for k, v in overrides.items():
        if not hasattr(mod, k):
            raise ProblemError(f"globals: {path} has no module-level name '{k}'")
        setattr(mod, k, v)
    return mod


def attr(mod, name, path):
    if not hasattr(mod, name):
        raise ProblemError(f"{path} defines no '{name}' (a KernelBench problem has class Model, "
                           "get_inputs and get_init_inputs)")
    return getattr(mod, name)


def to_device(torch, x):
    return x.cuda() if isinstance(x, torch.Tensor) else x


def as_outputs(torch, y):
    if isinstance(y, torch.Tensor):
        return [y]
    if isinstance(y, (list, tuple)):
        return list(y)
    raise ProblemError(f"the model returned a {type(y).__name__}, not a tensor or a tuple of them")


def trial_records(torch, codes, model, inputs, outputs):
    recs = []
    for i, x in enumerate(inputs):
        if isinstance(x, torch.Tensor):
            recs.append(tensor_record(torch, codes, INPUT, i, "", x, f"input{i}"))
    for i, y in enumerate(outputs):
        recs.append(tensor_record(torch, codes, OUTPUT, i, "", y, f"output{i}"))
    named = list(model.named_parameters()) + list(model.named_buffers())
    for name, p in named:
        recs.append(tensor_record(torch, codes, PARAM, 0, name, p, f"param:{name}"))
    return recs


def time_fn(torch, fn, inputs, warmup, iterations):
    """As the worker times a kernel: warmup, then per timed run an L2 flush
    (a write over a buffer of max(256 MB, 2 x L2)), events around the run."""
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    l2 = getattr(props, "L2_cache_size", 0) or 0
    flush = torch.empty(max(L2_FLUSH_BYTES, 2 * l2), dtype=torch.uint8, device="cuda")
    with torch.no_grad():
        for _ in range(warmup):
            fn(*inputs)
        torch.cuda.synchronize()
        ms = []
        for i in range(iterations):
            flush.fill_(i & 0xFF)
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*inputs)
            end.record()
            torch.cuda.synchronize()  # waits on every stream, not only the current one
            ms.append(start.elapsed_time(end))
    return ms


def run(args, torch):
    codes = dtype_codes(torch)
    # An fp32 reference in fp32: TF32 matmuls and convolutions would differ
    # from a correct fp32 kernel by more than the fp32 tolerance.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    overrides = json.loads(args.globals) if args.globals else {}
    mod = load_problem(args.problem, overrides)
    model_cls = attr(mod, args.model, args.problem)
    get_inputs = attr(mod, args.inputs, args.problem)
    get_init = attr(mod, args.init_inputs, args.problem)
    torch.manual_seed(args.model_seed)
    init = get_init()
    torch.manual_seed(args.model_seed)
    model = model_cls(*init).cuda()  # as KernelBench builds it: training mode, no eval()
    inputs = []
    seeds = [int(s) for s in args.seeds.split(",") if s]
    with torch.no_grad():
        for t, seed in enumerate(seeds):
            torch.manual_seed(seed)
            inputs = [to_device(torch, x) for x in get_inputs()]
            outputs = as_outputs(torch, model(*inputs))
            torch.cuda.synchronize()
            write_file(os.path.join(args.out, f"trial{t}.upkt"),
                       trial_records(torch, codes, model, inputs, outputs))
    times = [record(TIME_EAGER, 0, "eager", 3, (args.iterations,),
                    struct.pack(f"<{args.iterations}d",
                                *time_fn(torch, model, inputs, args.warmup, args.iterations)))]
    if args.compile:
        compiled = torch.compile(model)
        times.append(record(TIME_COMPILE, 0, "compile", 3, (args.iterations,),
                            struct.pack(f"<{args.iterations}d",
                                        *time_fn(torch, compiled, inputs, max(args.warmup, 1),
                                                 args.iterations))))
    write_file(os.path.join(args.out, "timing.upkt"), times)


# ---- a torch op of a kernel-builder project ----------------------------------

DTYPE_NAMES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64",
               "i8": "int8", "i32": "int32", "i64": "int64", "u8": "uint8", "u32": "uint32"}


def variant_names(torch):
    """kernel-builder's build variants for this torch, newest naming first:
    torch<maj><min>-cxx11-cu<maj><min>-<machine>-linux, then torch-universal
    (a pure-Python kernel)."""
    tv = "".join(torch.__version__.split("+")[0].split(".")[:2])
    cv = "".join((torch.version.cuda or "").split(".")[:2])
    machine = platform.machine()
    return [f"torch{tv}-cxx11-cu{cv}-{machine}-linux", f"torch{tv}-cxx98-cu{cv}-{machine}-linux",
            "torch-universal"]


def package_dir(root, pkg):
    """The importable package of a variant: the variant dir itself (newer
    layout: _ops.py at its top) or <variant>/<package>/."""
    if os.path.isfile(os.path.join(root, "_ops.py")):
        return root
    if os.path.isfile(os.path.join(root, pkg, "_ops.py")):
        return os.path.join(root, pkg)
    return None


def import_ops(torch, plan):
    import importlib
    import importlib.util
    pkg, project = plan["package"], plan["project"]
    build = os.path.join(project, "build")
    tried = variant_names(torch)
    dirs = [package_dir(os.path.join(build, v), pkg) for v in tried]
    dirs.append(package_dir(os.path.join(project, "torch-ext"), pkg))  # a development install
    found = next((d for d in dirs if d), None)
    if found is None:
        have = sorted(os.listdir(build)) if os.path.isdir(build) else []
        raise OpUnavailable(f"no built variant for torch {torch.__version__} under {build} "
                            f"(looked for {', '.join(tried)}; it has: {', '.join(have) or 'none'})")
    try:
        spec = importlib.util.spec_from_file_location(
            pkg, os.path.join(found, "__init__.py"), submodule_search_locations=[found])
        mod = importlib.util.module_from_spec(spec)
        sys.modules[pkg] = mod
        spec.loader.exec_module(mod)
        ops = importlib.import_module(pkg + "._ops").ops
    except Exception as e:  # a stale build, an ABI mismatch, a missing dependency
        raise OpUnavailable(f"importing {found} failed: {type(e).__name__}: {e}") from e
    fn = getattr(ops, plan["op"], None)
    if fn is not None and plan.get("overload"):
        fn = getattr(fn, plan["overload"], None)
    if fn is None:
        raise OpUnavailable(f"{found} imports, but registers no op '{plan['op']}' "
                            "(rebuild it: torch_binding.cpp declares it)")
    return fn


def draw(torch, a):
    dt = getattr(torch, DTYPE_NAMES[a["dtype"]])
    shape = a["shape"]
    drawn = "low" in a or "high" in a
    if a["written"] and not drawn:  # the op's output: preallocated, the op fills it
        return torch.zeros(shape, dtype=dt, device="cuda")
    if dt.is_floating_point:
        lo, hi = a.get("low", -1.0), a.get("high", 1.0)
        return (torch.rand(shape, dtype=torch.float32, device="cuda") * (hi - lo) + lo).to(dt)
    lo, hi = int(a.get("low", 0)), int(a.get("high", 16))
    return torch.randint(lo, hi + 1, shape, dtype=torch.int64, device="cuda").to(dt)


def op_args(torch, plan):
    """Positional arguments in schema order; after one left to its default,
    the rest by name."""
    pos, kw, reads, writes, gap = [], {}, [], [], False
    for a in plan["args"]:
        if a["kind"] == "default":
            gap = True
            continue
        v = None
        if a["kind"] == "tensor":
            v = draw(torch, a)
            (writes if a["written"] else reads).append(v)
        elif a["kind"] == "value":
            v = a["value"]
        if gap:
            kw[a["name"]] = v
        else:
            pos.append(v)
    return pos, kw, reads, writes


def returned(torch, r):
    if r is None:
        return []
    if isinstance(r, torch.Tensor):
        return [r]
    return [x for x in r if isinstance(x, torch.Tensor)]


def run_op(args, torch):
    codes = dtype_codes(torch)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    with open(args.op_plan) as f:
        plan = json.load(f)
    fn = import_ops(torch, plan)
    names_in = [a["name"] for a in plan["args"] if a["kind"] == "tensor" and not a["written"]]
    written = [a for a in plan["args"] if a["kind"] == "tensor" and a["written"]]
    names_out = [a["name"] for a in written]
    # An output the op updates in place: its contents before the call go too.
    drawn = [i for i, a in enumerate(written) if "low" in a or "high" in a]
    call = None
    seeds = [int(s) for s in args.seeds.split(",") if s]
    for t, seed in enumerate(seeds):
        torch.manual_seed(seed)
        pos, kw, reads, writes = op_args(torch, plan)
        before = [tensor_record(torch, codes, OUTPUT_INIT, i, names_out[i], writes[i],
                                f"output{i} ({names_out[i]}) before the op") for i in drawn]
        outs = writes + returned(torch, fn(*pos, **kw))
        torch.cuda.synchronize()
        recs = [tensor_record(torch, codes, INPUT, i, names_in[i], x, f"input{i} ({names_in[i]})")
                for i, x in enumerate(reads)] + before
        for i, y in enumerate(outs):
            name = names_out[i] if i < len(names_out) else f"return{i - len(names_out)}"
            recs.append(tensor_record(torch, codes, OUTPUT, i, name, y, f"output{i} ({name})"))
        write_file(os.path.join(args.out, f"trial{t}.upkt"), recs)
        call = (pos, kw)
    def once(*_):
        return fn(*call[0], **call[1])
    ms = time_fn(torch, once, [], args.warmup, args.iterations)
    write_file(os.path.join(args.out, "timing.upkt"),
               [record(TIME_EAGER, 0, "eager", 3, (args.iterations,),
                       struct.pack(f"<{args.iterations}d", *ms))])


def parse_args(argv):
    p = argparse.ArgumentParser(description="upskilld's PyTorch reference helper")
    p.add_argument("--problem")
    p.add_argument("--op")
    p.add_argument("--op-plan")
    p.add_argument("--out", required=True)
    p.add_argument("--seeds", required=True)
    p.add_argument("--model-seed", type=int, default=42)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--model", default="Model")
    p.add_argument("--inputs", default="get_inputs")
    p.add_argument("--init-inputs", default="get_init_inputs")
    p.add_argument("--globals", default=None)
    p.add_argument("--compile", action="store_true")
    a = p.parse_args(argv)
    if bool(a.problem) == bool(a.op_plan):
        p.error("give --problem, or --op and --op-plan")
    return a


def main(argv):
    try:
        args = parse_args(argv)
    except SystemExit:
        return EXIT_USAGE
    try:
        import torch
    except ImportError as e:
        print(f"torch is not installed for {sys.executable} ({e})", file=sys.stderr)
        return EXIT_NO_TORCH
    if not torch.cuda.is_available():
        print(f"torch {torch.__version__} (for {sys.executable}) sees no CUDA device",
              file=sys.stderr)
        return EXIT_NO_CUDA
    where = args.problem or f"op {args.op}"
    try:
        if args.op_plan:
            run_op(args, torch)
        else:
            run(args, torch)
    except OpUnavailable as e:
        print(str(e), file=sys.stderr)
        return EXIT_OP_UNAVAILABLE
    except ProblemError as e:
        print(f"{where}: {e}", file=sys.stderr)
        return EXIT_PROBLEM
    except Exception:  # the problem's own error: its traceback's end says where
        lines = traceback.format_exc().strip().splitlines()
        print(f"{where} raised: " + " | ".join(lines[-3:]), file=sys.stderr)
        return EXIT_PROBLEM
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
