// expect: clean
// launch: grid=2 block=128 n=200 in=float32:200 out=float32:200
// Discrete Laplacian of a 1-D signal, one thread per sample.
// FIX of stencil_oob_global.cu: the interior samples 1..n-2 get the 3-point stencil, the two
// end samples are fixed boundaries with Laplacian 0, so no access leaves [0, n).
// Buffers: in and out hold n floats.

__global__ void laplacian1d(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = in[i - 1] - 2.0f * in[i] + in[i + 1];
  else if (i == 0 || i == n - 1)
    out[i] = 0.0f;
}
