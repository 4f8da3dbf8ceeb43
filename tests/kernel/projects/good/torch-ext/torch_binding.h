#pragma once
#include <torch/torch.h>

void gelu(torch::Tensor &out, const torch::Tensor &in);
void rmsnorm(torch::Tensor &out, const torch::Tensor &in, const torch::Tensor &weight);
