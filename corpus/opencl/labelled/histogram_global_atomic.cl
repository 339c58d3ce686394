// expect: clean
// launch: grid=4 block=64 n=1024 bins=uint32:256:zeros
// 256-bin histogram of an 8-bit image, grid-stride loop over the pixels.
// FIXED version of histogram_global_nonatomic.cl: atomic_inc makes every increment count.

__kernel void histogram_u8(__global const uchar *pixels, __global uint *bins, const int n)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[pixels[i]]);
}
