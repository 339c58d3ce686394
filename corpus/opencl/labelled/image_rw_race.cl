// expect: race global write-write line 19
// launch: grid=2,2 block=16,16 src=float32:32x32x4 dst=float32:16x16x4
// Halves an image (nearest-neighbour downsampling): output pixel (x, y) is input pixel (2x, 2y).
// BUG (one writer per output pixel is assumed, four are launched): the kernel is launched over
// the *input* image and every work-item writes its pixel to (x / 2, y / 2), so the four
// work-items of each 2x2 block of the input write the same output pixel with different values;
// which one survives depends on the schedule.  The guard that keeps only the even work-items
// (or a launch over the output) is missing.
// (The in-place form of this bug, a read_write image2d_t whose work-items read pixels that
// others write, needs OpenCL C 2.0; simu compiles the corpus as OpenCL C 1.2.)
// Fixed version: image_out_of_place.cl.disabled (launched over the output, each work-item
// averages its 2x2 block of the input).
// Images: src is W x H RGBA floats, dst is W/2 x H/2.

__kernel void downsample(read_only image2d_t src, write_only image2d_t dst)
{
  const int x = get_global_id(0), y = get_global_id(1);
  const float4 v = read_imagef(src, (int2)(x, y));
  write_imagef(dst, (int2)(x / 2, y / 2), v);
}
