// expect: clean
// launch: grid=2,2 block=8,8 src=float32:32x32x4 dst=float32:16x16x4
// Halves an image: output pixel (x, y) is the mean of input pixels (2x..2x+1, 2y..2y+1).
// FIX of image_rw_race.cl: launched over the *output* image, one work-item per output pixel,
// reading its 2x2 block of the input image (a sampler clamps reads at the edge of an input of
// odd size) and writing its own pixel of the output image, which no other work-item touches.
// Images: src is W x H RGBA floats, dst is W/2 x H/2.
// DISABLED (rename to .cl to enable): simu analyses it clean and its output matches PoCL, but
// tests/test_validate.py replays every clean OpenCL corpus kernel on PoCL and
// simu/validate/devices.py `_pad` flattens every array argument (guard bytes), so an image
// argument reaches make_image as 1-D and the replay is skipped.  Needs `_pad`/`_unpad` to leave
// arrays of more than one axis (images) as they are.  tests/test_opencl_constructs.py checks it.

__kernel void downsample(read_only image2d_t src, write_only image2d_t dst, sampler_t edge)
{
  const int x = get_global_id(0), y = get_global_id(1);
  const float4 sum = read_imagef(src, edge, (int2)(2 * x, 2 * y)) + read_imagef(src, edge, (int2)(2 * x + 1, 2 * y))
                   + read_imagef(src, edge, (int2)(2 * x, 2 * y + 1))
                   + read_imagef(src, edge, (int2)(2 * x + 1, 2 * y + 1));
  write_imagef(dst, (int2)(x, y), 0.25f * sum);
}
