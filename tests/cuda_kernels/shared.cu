// Shared memory: reductions, scans, transpose, tiled matmul, barrier reductions.

// Tree reduction in dynamic shared memory (blockDim.x a power of two; two loads per thread).
__global__ void reduce_tree(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float s = 0.0f;
  if (i < n) s = in[i];
  if (i + blockDim.x < n) s += in[i + blockDim.x];
  sdata[tid] = s;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) sdata[tid] += sdata[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Classic warp-synchronous tail with volatile shared memory (blockDim.x >= 64, power of two).
__device__ void warp_reduce(volatile int *s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void reduce_warpsync(const int *in, int *out, int n) {
  __shared__ int s[512];
  int tid = threadIdx.x;
  int acc = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) acc += in[i];
  s[tid] = acc;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) warp_reduce(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Hillis-Steele inclusive scan with a double buffer in dynamic shared memory (any block size).
__global__ void block_scan(const int *in, int *out, int n) {
  extern __shared__ int buf[];
  int tid = threadIdx.x;
  int g = blockIdx.x * blockDim.x + tid;
  int pout = 0, pin = 1;
  buf[tid] = g < n ? in[g] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    int v = buf[pin * blockDim.x + tid];
    if (tid >= off) v += buf[pin * blockDim.x + tid - off];
    buf[pout * blockDim.x + tid] = v;
    __syncthreads();
  }
  if (g < n) out[g] = buf[pout * blockDim.x + tid];
}

// Transpose through a padded shared tile; each thread moves TILE/blockDim.y elements.
#define TILE 16
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += blockDim.y)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += blockDim.y)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// C[M,N] = A[M,K] * B[K,N] with square shared tiles of MT x MT (block MT x MT).
#define MT 8
__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[MT][MT];
  __shared__ float Bs[MT][MT];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * MT + ty, col = blockIdx.x * MT + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += MT) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < MT; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

// __syncthreads_count / _and / _or over 3-D blocks and grids.
__global__ void sync_reductions(const int *in, int *cnt, int *all_pos, int *any_big) {
  int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int g = block * blockDim.x * blockDim.y * blockDim.z + tid;
  int p = in[g];
  cnt[g] = __syncthreads_count(p > 0);
  all_pos[g] = __syncthreads_and(p > -5);
  any_big[g] = __syncthreads_or(p > 90);
}

// Two arrays of different types carved out of one dynamic shared allocation.
__global__ void dyn_two(const float *in, float *out, int *iout, int n) {
  extern __shared__ unsigned char smem[];
  float *fs = (float *)smem;
  int *is = (int *)(smem + blockDim.x * sizeof(float));
  int tid = threadIdx.x;
  int g = blockIdx.x * blockDim.x + tid;
  fs[tid] = g < n ? in[g] : -1.0f;
  is[tid] = g;
  __syncthreads();
  int r = blockDim.x - 1 - tid;  // reverse the block
  if (g < n) {
    out[g] = fs[r];
    iout[g] = is[r];
  }
}
