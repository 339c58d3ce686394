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

// Float coordinates through a sampler argument: every addressing mode, normalised or not, nearest and
// linear filtering (the launches pick the sampler bits).
__kernel void image_sample2d(read_only image2d_t img, sampler_t s, __global const float2 *coords,
                             __global float4 *out)
{
    int i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}

// Trilinear filtering with a program-scope sampler; integer images of another dimensionality read with
// float coordinates through the same sampler argument.
__constant sampler_t tri = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

__kernel void image_sample3d(read_only image3d_t vol, read_only image3d_t ivol, read_only image1d_t urow,
                             sampler_t s, __global const float4 *coords, __global float4 *out,
                             __global int4 *iout, __global uint4 *uout)
{
    int i = get_global_id(0);
    float4 c = coords[i];
    out[i] = read_imagef(vol, tri, c);
    iout[i] = read_imagei(ivol, s, c);
    uout[i] = read_imageui(urow, s, c.x);
}

// Image arrays and image buffers: layers from the last coordinate (clamped), writes into a layer,
// get_image_array_size.
__kernel void image_layers(read_only image2d_array_t planes, read_only image1d_array_t rows,
                           read_only image1d_buffer_t line, write_only image2d_array_t copy,
                           sampler_t s, __global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    int layers = get_image_array_size(planes);
    float4 a = read_imagef(planes, s, (float4)(x + 0.5f, y + 0.5f, (float)(x % 4) - 0.75f, 0.0f));
    float4 b = read_imagef(rows, (int2)(x, y - 1));
    float4 c = read_imagef(line, x);
    float4 d = read_imagef(planes, (int4)(x, y, layers - 1, 0));
    write_imagef(copy, (int4)(x, y, y % 2, 0), d);
    out[y * get_global_size(0) + x] = a + b * 2.0f + c * 4.0f + (float4)(get_image_array_size(rows));
}

// Linear and nearest filtering of 1-D images, 1-D arrays and 2-D arrays: sampler s for the plain image
// (normalised or not), sampler a (unnormalised) for the arrays, whose layer is the last coordinate.
__kernel void image_sample_arrays(read_only image1d_t row, read_only image1d_array_t rows,
                                  read_only image2d_array_t planes, sampler_t s, sampler_t a,
                                  __global const float4 *coords, __global float4 *out)
{
    int i = get_global_id(0);
    float4 c = coords[i];
    out[3 * i] = read_imagef(row, s, c.x);
    out[3 * i + 1] = read_imagef(rows, a, (float2)(c.y, c.w));
    out[3 * i + 2] = read_imagef(planes, a, (float4)(c.y, c.z, c.w, 0.0f));
}
