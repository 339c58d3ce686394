// expect: redundant-barrier line 53
// launch: grid=4 block=64 npts=40 H=float32:36 src=float32:80 dst=float32:80
// constrain: block=64 npts=1:64 len:H=9*blocks len:src=2*npts len:dst=2*npts
// RANSAC scoring of candidate homographies, one block per candidate h: every thread
// reprojects some of the npts correspondences with H_h and stores the squared error,
// then thread 0 finds the median error by counting and publishes it.
// REDUNDANT BARRIER: the median is written to s_median and read back under the same
// `tid == 0` guard, so only thread 0 ever touches s_median; the last __syncthreads()
// orders nothing (the other two are needed: s_H is read by every thread, err is read by
// thread 0 after all threads wrote it).
// Buffers: H holds 9 floats per candidate, src/dst hold npts (x, y) pairs, err holds
// npts floats per candidate, median_err one float per candidate.

__global__ void homography_median(const float *H, const float *src, const float *dst, int npts,
                                  float *err, float *median_err) {
  __shared__ float s_H[9];
  __shared__ float s_median;
  const int tid = threadIdx.x;
  const int h = blockIdx.x;

  if (tid < 9) s_H[tid] = H[h * 9 + tid];
  __syncthreads();

  for (int i = tid; i < npts; i += blockDim.x) {
    float x = src[2 * i], y = src[2 * i + 1];
    float w = s_H[6] * x + s_H[7] * y + s_H[8];
    float u = (s_H[0] * x + s_H[1] * y + s_H[2]) / w;
    float v = (s_H[3] * x + s_H[4] * y + s_H[5]) / w;
    float du = u - dst[2 * i], dv = v - dst[2 * i + 1];
    err[h * npts + i] = du * du + dv * dv;
  }
  __syncthreads();

  if (tid == 0) {
    // median by counting: e[i] is the median when at most npts/2 errors lie below it and
    // the npts/2-th one (0-based) is among its copies
    const float *e = err + h * npts;
    float med = 0.0f;
    for (int i = 0; i < npts; ++i) {
      int below = 0, equal = 0;
      for (int j = 0; j < npts; ++j) {
        below += e[j] < e[i];
        equal += e[j] == e[i];
      }
      if (below <= npts / 2 && npts / 2 < below + equal) {
        med = e[i];
        break;
      }
    }
    s_median = med;
  }
  // Only thread 0 wrote s_median and only thread 0 reads it: this barrier is useless.
  __syncthreads();
  if (tid == 0) median_err[h] = s_median;
}
