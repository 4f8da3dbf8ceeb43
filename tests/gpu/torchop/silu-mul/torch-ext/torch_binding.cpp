// The ops this project binds: silu_and_mul, out[r, c] = silu(in[r, c]) * in[r, d + c] with
// d = in.size(-1) / 2, and scale_, x *= alpha in place.
#include <torch/library.h>

#include "registration.h"

void silu_and_mul(torch::Tensor &out, torch::Tensor const &input);
void scale_(torch::Tensor &x, double alpha);

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("silu_and_mul(Tensor! out, Tensor input) -> ()");
  ops.impl("silu_and_mul", torch::kCUDA, &silu_and_mul);
  // In place: x *= alpha.
  ops.def("scale_(Tensor(a!) x, float alpha) -> ()");
  ops.impl("scale_", torch::kCUDA, &scale_);
}

REGISTER_EXTENSION(TORCH_EXTENSION_NAME)
