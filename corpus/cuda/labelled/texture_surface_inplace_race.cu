// expect: race global read-write lines 20,24
// expect: race global read-write lines 22,24
// launch: grid=2,16 block=32,1 w=64 h=16 src=float32:16x64 dst=same:src
// constrain: same:dst=src
// Horizontal 3-tap box filter of an image: every thread samples its pixel and its left and right
// neighbours through a texture object (tex2D, clamped at the edges) and writes the average
// through a surface object (surf2Dwrite; x in bytes).
// BUG (filtering in place): the host made the texture and the surface over one cudaArray, so a
// thread's surface write of its pixel races with its neighbours' texture reads of that pixel
// (the texture cache is not even coherent with surface writes of the same launch).  The
// `same:dst=src` launch setting says so: both objects share one backing buffer.
// (texture_surface_pingpong_fixed.cu writes to a second array.)
// Buffers: src backs the texture with an h x w image; dst is the same array.

__global__ void box3(cudaTextureObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const float cy = y + 0.5f;
  const float left = tex2D<float>(src, x - 0.5f, cy);
  const float mid = tex2D<float>(src, x + 0.5f, cy);
  const float right = tex2D<float>(src, x + 1.5f, cy);
  const float avg = (left + mid + right) * (1.0f / 3.0f);
  surf2Dwrite(avg, dst, x * 4, y);
}
