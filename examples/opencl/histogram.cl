// 16-bin histogram in local memory.
// BUG (planted): the local bins are incremented without atomics, so work-items that see the
// same bin lose updates (a write-write race on `bins`).
__kernel void histogram16(__global const uint *data, __global uint *hist, int n) {
  __local uint bins[16];
  int l = get_local_id(0);
  if (l < 16) bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = get_global_id(0);
  if (i < n) bins[data[i] % 16] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&hist[l], bins[l]);
}
