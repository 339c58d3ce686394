// Images and samplers: integer coordinates, nearest filtering, the clamp addressing modes.
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void image_cross(read_only image2d_t img, write_only image2d_t out, sampler_t s)
{
    const sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= get_image_width(out) || y >= get_image_height(out))
        return;
    float4 a = read_imagef(img, s, (int2)(x - 1, y)) + read_imagef(img, edge, (int2)(x + 1, y));
    float4 b = read_imagef(img, border, (int2)(x, y - 1)) + read_imagef(img, border, (int2)(x, y + 1));
    write_imagef(out, (int2)(x, y), a + b);
}

__kernel void image_ints(read_only image2d_t plane, write_only image1d_t row, __global int4 *sums)
{
    int x = get_global_id(0);
    int4 v = read_imagei(plane, (int2)(x, 0)) + read_imagei(plane, (int2)(x, 1));
    write_imagei(row, x, v);
    sums[x] = v * 2;
}
