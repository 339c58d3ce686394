// expect: clean
// launch: grid=2 block=64 n=256 row=int32:257:ramp col=int32:256:small lab_in=int32:256:ramp lab_out=int32:256:zeros changed=int32:1:zeros
// One Jacobi step of label-propagation connected components in a persistent, grid-stride kernel:
// a fixed grid sweeps all n vertices (v, v + gridDim.x * blockDim.x, ...); every vertex takes the
// minimum label of itself and its neighbours, and a vertex whose label dropped raises the
// `changed` flag that tells the host to run another step.
// FIXED twin of gridstride_cc_race.cu: the host clears `changed` before the launch and the kernel
// only raises it with atomicExch; lab_in is only read and lab_out[v] is written by the one thread
// whose sweep reaches v.  Race-free for every valid graph.
// Buffers: row holds the CSR offsets (n + 1 of them, non-decreasing from 0), col the neighbour ids
// (row[n] of them, each in [0, n)); lab_in and lab_out hold n labels; changed one int, 0 at the
// launch.
// Launch: 128 threads for n = 256 vertices (two sweeps each); row=ramp gives every vertex one
// edge, col=small draws the neighbours in [0, 100) (valid), lab_in=ramp (labels = ids).

__global__ void cc_step(const int *row, const int *col, const int *lab_in, int *lab_out,
                        int *changed, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
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
