"""The built op, as a torch-universal (pure Python) variant: registered with
torch.library under its own namespace, computed with PyTorch on CUDA. It
stands where kernel-builder puts a compiled extension's _ops.py, so the
helper's import and call path is the real one (tests/gpu/torchop/README.md)."""
import torch

_NS = "_upk_silu_mul_test"
_lib = torch.library.Library(_NS, "DEF")
_lib.define("silu_and_mul(Tensor! out, Tensor input) -> ()")


def _silu_and_mul(out, input):
    d = input.shape[-1] // 2
    out.copy_(torch.nn.functional.silu(input[..., :d]) * input[..., d:])


_lib.impl("silu_and_mul", _silu_and_mul, "CUDA")
_lib.define("scale_(Tensor(a!) x, float alpha) -> ()")


def _scale(x, alpha):
    x.mul_(alpha)


_lib.impl("scale_", _scale, "CUDA")
ops = getattr(torch.ops, _NS)
