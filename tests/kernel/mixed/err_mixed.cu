// A host/device file with two device-side mistakes nvcc reports by line.
#include <iostream>

__global__ void broken(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int unused = 3;
  if (i < n)
    y[i] = undefined_scale * y[i];
}

int main() {
  float *y;
  cudaMalloc(&y, 1024);
  broken<<<1, 256>>>(y, 256);
  std::cout << "launched" << std::endl;
  return 0;
}
