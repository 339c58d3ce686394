// expect: race global write-write lines 21,29
// launch: grid=2 block=64 n=256 row=int32:257:ramp col=int32:256:small lab_in=int32:256:ramp lab_out=int32:256:zeros changed=int32:1:zeros
// One Jacobi step of label-propagation connected components in a persistent, grid-stride kernel:
// a fixed grid sweeps all n vertices (v, v + gridDim.x * blockDim.x, ...); every vertex takes the
// minimum label of itself and its neighbours, and a vertex whose label dropped raises the
// `changed` flag that tells the host to run another step.
// BUG: the kernel clears the flag itself (thread 0 stores 0) while threads of other warps and
// blocks may already have raised it with atomicExch: the plain store races with the atomics
// (write-write) and can wipe a raised flag, so the host stops early.  It shows for any graph
// with an edge to a smaller-numbered vertex from a vertex that warp 0 does not sweep.
// (gridstride_cc_fixed.cu leaves clearing the flag to the host, before the launch.)
// Buffers: row holds the CSR offsets (n + 1 of them, non-decreasing from 0), col the neighbour ids
// (row[n] of them, each in [0, n)); lab_in and lab_out hold n labels; changed one int.
// Launch: 128 threads for n = 256 vertices (two sweeps each); row=ramp gives every vertex one
// edge, col=small draws the neighbours in [0, 100) (valid), lab_in=ramp (labels = ids).

__global__ void cc_step(const int *row, const int *col, const int *lab_in, int *lab_out,
                        int *changed, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0)
    *changed = 0;
  for (int v = tid; v < n; v += gridDim.x * blockDim.x) {
    const int own = lab_in[v];
    int m = own;
    for (int e = row[v]; e < row[v + 1]; ++e)
      m = min(m, lab_in[col[e]]);
    lab_out[v] = m;
    if (m < own)
      atomicExch(changed, 1);
  }
}
