// Vector types: arithmetic, swizzles, comparisons, conversions, vload / vstore.

__kernel void vec_float4_arith(__global const float4* a, __global const float4* b,
                               __global float4* out, __global float2* lo, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float4 x = a[i];
    const float4 y = b[i];
    float4 r = x * y + x.wzyx - y.xxyy * 0.5f;
    r.xz = r.zx + (float2)(1.0f, -2.0f);
    r.w = r.w / (fabs(y.w) + 1.0f);
    r.s1 -= x.s3;
    out[i] = r;
    lo[i] = (x.lo + y.hi) * (float2)(x.z, y.x) + x.odd;
}

__kernel void vec_int2_ops(__global const int2* a, __global const int2* b,
                           __global int2* out, __global int2* mask, __global int2* sel,
                           const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const int2 x = a[i];
    const int2 y = b[i];
    out[i] = ((x + y) * 3) ^ (x >> 1) ^ ((y & 0xff) << (int2)(1, 2)) - x.yx;
    mask[i] = x < y;                  // vector comparison: -1 (all bits) or 0
    sel[i] = select(x, y, x < y) + (x == y) + (int2)(x.x != 0 && y.y != 0, x.y & 7);
}

// vload / vstore with offsets and odd widths (3), unaligned pointer arithmetic.
__kernel void vec_vload_vstore(__global const float* in, __global float* out3,
                               __global float* out4, __global float* out2, const int n3)
{
    const int i = get_global_id(0);
    if (i >= n3)
        return;
    const float3 v = vload3(i, in);
    vstore3(v.zxy * 2.0f + (float3)(0.5f), i, out3);
    if (i % 2 == 0 && (i / 2 + 1) * 4 <= 3 * n3) {
        const float4 q = vload4(i / 2, in);
        vstore4(q.s3210 - q, i / 2, out4);
    }
    const float2 p = vload2(0, in + 1 + 3 * i);   // elements 3i+1 and 3i+2
    vstore2(p.yx * p, i, out2);
}

// Float to integer vector conversions with saturation and explicit rounding, and bit
// reinterpretation.
__kernel void vec_convert(__global const float4* px, __global uchar4* rgba,
                          __global short4* s4, __global int4* bits, __global int4* rounded,
                          const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float4 p = px[i];
    rgba[i] = convert_uchar4_sat_rte(p * 255.0f);
    s4[i] = convert_short4_sat(p * 40000.0f);
    bits[i] = as_int4(p);
    rounded[i] = convert_int4_rtn(p * 100.0f) + convert_int4_rtp(p * 10.0f);
}

// Integer colour arithmetic on uchar4 with ushort intermediates.
__kernel void vec_rgba_gray(__global const uchar4* in, __global uchar* gray,
                            __global uchar4* inverted, __global uchar4* blended,
                            const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const uchar4 p = in[i];
    const ushort4 w = convert_ushort4(p) * (ushort4)(77, 150, 29, 0);
    gray[i] = (uchar)((w.x + w.y + w.z + 128) >> 8);
    inverted[i] = (uchar4)(255) - p;
    const uchar4 q = in[n - 1 - i];
    blended[i] = convert_uchar4((convert_ushort4(p) + convert_ushort4(q) + (ushort4)(1)) >> (ushort4)(1));
}

// Wide vectors: int8 halves and even/odd swizzles, ushort8 wrap-around, long2 products.
__kernel void vec_wide(__global const int8* a, __global const ushort8* s,
                       __global const long2* l, __global int4* halves,
                       __global ushort8* sw, __global long2* lp, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const int8 v = a[i];
    halves[i] = (v.lo + v.hi) * (v.even - v.odd) + v.s7654;
    const ushort8 t = s[i];
    sw[i] = t * (ushort8)(3) + t.s76543210;           // wraps on 16 bits (no promotion)
    const long2 m = l[i];
    lp[i] = m * m.yx + (long2)(m.x >> 3, (m.y & 0xffff) << 5);
}
