// The op this project binds: out[r, c] = silu(in[r, c]) * in[r, d + c], d = in.size(-1) / 2.
#include <torch/library.h>

#include "registration.h"

void silu_and_mul(torch::Tensor &out, torch::Tensor const &input);

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("silu_and_mul(Tensor! out, Tensor input) -> ()");
  ops.impl("silu_and_mul", torch::kCUDA, &silu_and_mul);
}

REGISTER_EXTENSION(TORCH_EXTENSION_NAME)
