// expect: clean
// launch: grid=2,2 block=16,16 n=30 stride=32 L=float32:1024 S=float32:1024
// constrain: stride=32 n=1:32
// Expand a matrix stored in its lower triangle into a full symmetric matrix, one thread per
// element of an n x n matrix with row pitch `stride`.
// FIX of triangular_copy_inplace.cu: the mirrored copy goes to a separate output S, so the
// source triangle L is only read and every element of S is written by exactly one thread.
// Buffers: L and S hold n rows of `stride` floats.

__global__ void symmetrize_out_of_place(const float *L, float *S, int n, int stride) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  // lower triangle and diagonal copied, upper triangle mirrored from the lower one
  S[row * stride + col] = row >= col ? L[row * stride + col] : L[col * stride + row];
}
