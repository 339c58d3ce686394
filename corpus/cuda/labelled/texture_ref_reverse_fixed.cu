// expect: clean
// launch: grid=2 block=128 n=256 src=float32:256
// Block-wise reversal of a signal read through a legacy texture reference (texture<float, 1>,
// bound on the host with cudaBindTexture; removed in CUDA 12 but common in older code): every
// block fetches its 128 samples with tex1Dfetch into a shared tile and writes them back
// reversed.  simu backs the reference like a texture object (the launch names it: src=...).
// FIX of texture_ref_reverse_race.cu: a __syncthreads() between the stores of the tile and the
// reads of the mirror slots.
// Buffers: src backs the texture reference with n floats; out holds n floats.

#define BLOCK 128

texture<float, 1, cudaReadModeElementType> src;

__global__ void reverse_blocks(float *out, int n) {
  __shared__ float tile[BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  tile[tid] = gid < n ? tex1Dfetch(src, gid) : 0.0f;
  __syncthreads();
  if (gid < n) out[gid] = tile[BLOCK - 1 - tid];
}
