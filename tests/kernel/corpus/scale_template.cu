// A templated kernel with explicit instantiations (mangled names, not extern "C").
template <typename T>
__global__ void scale(T *data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * factor;
}

template <typename T, int UNROLL>
__global__ void scale_unrolled(T *data, T factor, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; u++)
    if (base + u < n)
      data[base + u] = data[base + u] * factor;
}

template __global__ void scale<float>(float *, float, int);
template __global__ void scale<double>(double *, double, int);
template __global__ void scale_unrolled<float, 4>(float *, float, int);
