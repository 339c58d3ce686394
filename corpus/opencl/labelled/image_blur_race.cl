// expect: race global read-write lines 22,26
// launch: grid=2,2 block=8,8 src=float32:16x16x4 dst=float32:16x16x4
// A separable 2x2 box blur done in one kernel: a horizontal pass samples the input image through a
// bilinear sampler with normalised coordinates (one tap halfway between two texels averages them)
// and stores the row result in a global scratch buffer; a vertical pass then averages the scratch
// rows above and below.
// BUG: the vertical pass reads scratch entries that the work-items of the next and previous rows
// write in the horizontal pass, with nothing ordering the two (they are in other work-groups at the
// block edges, and no barrier is used inside a group either): each output pixel mixes old and new
// scratch values depending on the schedule.
// Fixed version: image_blur_pingpong.cl (the two passes are two kernels ping-ponging images).

__constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

__kernel void blur(read_only image2d_t src, __global float4 *scratch, write_only image2d_t dst)
{
  const int x = get_global_id(0), y = get_global_id(1);
  const int w = get_global_size(0), h = get_global_size(1);
  const float2 texel = (float2)(1.0f / get_image_width(src), 1.0f / get_image_height(src));
  const float2 centre = ((float2)(x, y) + 0.5f) * texel;
  // horizontal pass: the bilinear tap at the right texel edge is the mean of the pixel and its neighbour
  scratch[y * w + x] = read_imagef(src, bilinear, centre + (float2)(0.5f, 0.0f) * texel);
  // vertical pass over the scratch rows written by other work-items
  const int up = max(y - 1, 0), down = min(y + 1, h - 1);
  if (x < get_image_width(dst) && y < get_image_height(dst))
    write_imagef(dst, (int2)(x, y), 0.5f * (scratch[up * w + x] + scratch[down * w + x]));
}
