// expect: race global read-write line 20
// (intra-warp pairs of the same two lines: part of the race, no separate warp-race)
// launch: grid=2,2 block=16,16 n=30 stride=32 A=float32:1024
// constrain: stride=32 n=1:32
// Mirror a matrix across its diagonal in place (a transposing triangular copy), one thread
// per element of an n x n matrix with row pitch `stride`.
// BUG: every off-diagonal thread copies, so thread (r, c) reads A[c][r] while thread (c, r)
// overwrites it with A[r][c]: the two triangles are read and written at the same time
// across threads (across warps of the diagonal blocks and across the two off-diagonal
// blocks), and the result depends on the schedule.  Lanes of one warp that transpose into
// each other are ordered by lockstep execution but not under independent thread
// scheduling.  (triangular_copy_fixed.cu writes to a separate output.)
// Buffers: A holds n rows of `stride` floats.

__global__ void mirror_inplace(float *A, int n, int stride) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n || row == col) return;
  // A[row][col] <- A[col][row]
  A[row * stride + col] = A[col * stride + row];
}
