// expect: clean
// launch: grid=2,16 block=32,1 w=64 h=16 src=float32:16x64 dst=float32:16x64
// Horizontal 3-tap box filter of an image: every thread samples its pixel and its left and right
// neighbours through a texture object (tex2D, clamped at the edges) and writes the average
// through a surface object (surf2Dwrite; x in bytes).
// FIX of texture_surface_inplace_race.cu, on the host: the surface is made over a second array
// (ping-pong between two images), so no texel read in the launch is written by it.  The kernel
// is unchanged; the launch gives dst its own buffer.
// Buffers: src backs the texture with an h x w image; dst an h x w image of its own.

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
