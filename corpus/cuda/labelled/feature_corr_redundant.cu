// expect: redundant-barrier line 27
// expect: redundant-barrier line 37
// launch: grid=3 block=128 ntrain=4 query=float32:384 train=float32:512
// constrain: len:query=threads len:train=ntrain*128 ntrain=1:16
// Descriptor matching by correlation: block b correlates query descriptor b (128 floats)
// with each of ntrain train descriptors; thread tid owns dimension tid, the products are
// summed by a tree reduction in shared memory and thread 0 stores the score.
// Four barriers; two of them order nothing:
//  * after staging q: thread tid only ever reads q[tid], which it wrote itself (REDUNDANT);
//  * after the products: the reduction reads other threads' products (needed);
//  * per reduction level: the next level reads what other threads wrote (needed);
//  * at the end of each train iteration: thread 0 read only partial[0], and the last
//    reduction barrier already orders every other read of partial before the next
//    iteration's writes (REDUNDANT).
// Buffers: query holds 128 floats per block, train 128 floats per train descriptor,
// score gridDim.x * ntrain floats.

#define DESC 128

__global__ void match_correlation(const float *query, const float *train, int ntrain,
                                  float *score) {
  __shared__ float q[DESC];
  __shared__ float partial[DESC];
  const int tid = threadIdx.x;  // blockDim.x == DESC

  q[tid] = query[blockIdx.x * DESC + tid];
  __syncthreads();

  for (int t = 0; t < ntrain; ++t) {
    partial[tid] = q[tid] * train[t * DESC + tid];
    __syncthreads();
    for (int s = DESC / 2; s > 0; s >>= 1) {
      if (tid < s) partial[tid] += partial[tid + s];
      __syncthreads();
    }
    if (tid == 0) score[blockIdx.x * ntrain + t] = partial[0];
    __syncthreads();
  }
}
