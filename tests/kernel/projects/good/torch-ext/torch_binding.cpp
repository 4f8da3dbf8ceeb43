#include <torch/library.h>

#include "torch_binding.h"

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("gelu(Tensor! out, Tensor input) -> ()");
  ops.def("rmsnorm(Tensor! out, Tensor input, Tensor weight) -> ()");
}
