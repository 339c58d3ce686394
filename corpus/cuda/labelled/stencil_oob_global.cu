// expect: out-of-bounds global line 11
// launch: grid=2 block=128 n=200 in=float32:200 out=float32:200
// Discrete Laplacian of a 1-D signal, one thread per sample.
// BUG (off-by-one halo in global memory): the guard only checks i < n, so thread 0 reads
// in[-1] and thread n - 1 reads in[n], one element before and one past the buffer.
// (stencil_global_fixed.cu treats the two end samples as fixed boundaries.)
// Buffers: in and out hold n floats.

__global__ void laplacian1d(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i - 1] - 2.0f * in[i] + in[i + 1];
}
