// expect: clean
// launch: grid=2,2 block=8,8 src=float32:16x16x4 dst=float32:16x16x4
// A separable 2x2 box blur as two passes that ping-pong between images: blur_rows reads image src
// through a bilinear sampler with normalised coordinates (one tap at the texel edge is the mean of
// a pixel and its right neighbour) and writes image dst; the host then launches blur_cols with the
// two images swapped, which does the same vertically.  Each work-item writes only its own pixel
// of an image that nothing in the launch reads.
// FIX of image_blur_race.cl: the intermediate result goes through an image between two launches
// instead of a scratch buffer read back in the same launch.

__constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

static float4 tap(read_only image2d_t src, int x, int y, float2 step)
{
  const float2 texel = (float2)(1.0f / get_image_width(src), 1.0f / get_image_height(src));
  return read_imagef(src, bilinear, ((float2)(x, y) + 0.5f + step) * texel);
}

__kernel void blur_rows(read_only image2d_t src, write_only image2d_t dst)
{
  const int x = get_global_id(0), y = get_global_id(1);
  if (x < get_image_width(dst) && y < get_image_height(dst))
    write_imagef(dst, (int2)(x, y), tap(src, x, y, (float2)(0.5f, 0.0f)));
}

__kernel void blur_cols(read_only image2d_t src, write_only image2d_t dst)
{
  const int x = get_global_id(0), y = get_global_id(1);
  if (x < get_image_width(dst) && y < get_image_height(dst))
    write_imagef(dst, (int2)(x, y), tap(src, x, y, (float2)(0.0f, 0.5f)));
}
