// Three-point smoothing of a signal: each work-item reads its neighbours and writes its own sample.
__kernel void smooth3(__global const float *signal, __global float *smoothed, int n) {
  int i = get_global_id(0);
  if (i > 0 && i < n - 1) smoothed[i] = 0.25f * signal[i - 1] + 0.5f * signal[i] + 0.25f * signal[i + 1];
}
