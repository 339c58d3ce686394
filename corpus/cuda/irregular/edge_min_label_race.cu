// expect: race global read-write lines 22,24
// expect: race global write-write line 24
// launch: grid=2 block=128 m=256 src=int32:256:small dst=int32:256:small lab_in=int32:100:ramp lab_out=int32:100:ramp
// One hooking step of label-propagation connected components, edge-parallel over an edge list
// (COO): for every edge s -> d, lab_out[d] becomes min(lab_out[d], lab_in[s]).
// BUG: the minimum is a plain load, compare and store: two edges with the same destination d
// (any graph where some vertex has in-degree >= 2 from edges of different threads) race on
// lab_out[d] (read-write and write-write), and the smaller label can be overwritten by the larger.
// (edge_min_label_fixed.cu uses atomicMin.)
// Buffers: src and dst hold the m edge end points, each a vertex id in [0, n); lab_in and lab_out
// hold n labels (lab_out starts as a copy of lab_in).
// Launch: n = 100 vertices: src=small and dst=small draw ids in [0, 100); lab_in=lab_out=ramp
// (every vertex labelled with its own id, the usual start).

__global__ void edge_min_label(const int *src, const int *dst, const int *lab_in, int *lab_out,
                               int m) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  const int s = src[e];
  const int d = dst[e];
  const int l = lab_in[s];
  const int cur = lab_out[d];
  if (l < cur)
    lab_out[d] = l;
}
