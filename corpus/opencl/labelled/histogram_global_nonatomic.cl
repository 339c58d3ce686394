// expect: race global line 13
// (independent model: warp-race global read-write line 13 is folded into the race on the same lines)
// launch: grid=4 block=64 n=1024 bins=uint32:256:zeros
// 256-bin histogram of an 8-bit image, grid-stride loop over the pixels.
// BUG: bins[...]++ is a plain load/add/store on global memory.  Work-items (in the same or in
// different work-groups) that see the same grey level overwrite each other's increments, so the
// counts come out too low by a schedule-dependent amount.
// Fixed version: histogram_global_atomic.cl.

__kernel void histogram_u8(__global const uchar *pixels, __global uint *bins, const int n)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        bins[pixels[i]]++;
}
