// expect: clean
// launch: grid=4,4 block=16,16 w=64 h=64 src=float32:64x64 dst=float32:32x32
// 2:1 downsampling of an image held in surface objects: the thread at the top-left pixel of
// every 2x2 quad averages the quad (surf2Dread, clamped at the image's edge) and writes the
// average to the half-resolution surface (surf2Dwrite; x in bytes, as CUDA defines it).
// FIX of surface_downsample_race.cu: only the top-left thread of each quad (even x and y)
// reads and writes, so every destination pixel has one writer.
// Buffers: src backs an h x w float surface, dst an (h / 2) x (w / 2) one.

__global__ void downsample(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h || (x & 1) || (y & 1)) return;
  const float sum = surf2Dread<float>(src, x * 4, y) +
                    surf2Dread<float>(src, (x + 1) * 4, y, cudaBoundaryModeClamp) +
                    surf2Dread<float>(src, x * 4, y + 1, cudaBoundaryModeClamp) +
                    surf2Dread<float>(src, (x + 1) * 4, y + 1, cudaBoundaryModeClamp);
  const float avg = 0.25f * sum;
  surf2Dwrite(avg, dst, (x / 2) * 4, y / 2);
}
