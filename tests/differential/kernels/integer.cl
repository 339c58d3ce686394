// Integer exactness: wrap-around, shifts (OpenCL masks shift counts), division and
// remainder of negative numbers, narrow types, conversions, bit operations, select,
// switch statements and hashing.  Signed overflow is avoided (it is undefined); signed
// wrap-around goes through unsigned arithmetic.

#define U32_OUT 6
#define I32_OUT 4

__kernel void int_wrap32(__global const uint* a, __global const uint* b, __global const uint* s,
                         __global uint* u, __global int* si, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const uint x = a[i], y = b[i], k = s[i];
    u[U32_OUT * i + 0] = x * y;
    u[U32_OUT * i + 1] = x + y;
    u[U32_OUT * i + 2] = x - y;
    u[U32_OUT * i + 3] = x << k;           // count taken modulo 32
    u[U32_OUT * i + 4] = x >> k;
    u[U32_OUT * i + 5] = (x * 2654435761u) ^ (y >> (k & 7));
    const int sx = (int)x, sy = (int)y;
    si[I32_OUT * i + 0] = (int)((uint)sx * (uint)sy);
    si[I32_OUT * i + 1] = sx >> k;         // arithmetic shift, count modulo 32
    si[I32_OUT * i + 2] = (int)(x + y) / 3;
    si[I32_OUT * i + 3] = (sy >> 2) - (sx >> 1);
}

__kernel void int_wrap64(__global const ulong* a, __global const ulong* b, __global const uint* s,
                         __global ulong* u, __global long* sl, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const ulong x = a[i], y = b[i];
    const uint k = s[i];
    u[6 * i + 0] = x * y;
    u[6 * i + 1] = x + y;
    u[6 * i + 2] = x - (y << 7);
    u[6 * i + 3] = x << k;                 // count taken modulo 64
    u[6 * i + 4] = x >> k;
    u[6 * i + 5] = mul_hi(x, y);
    const long lx = (long)x, ly = (long)y;
    sl[4 * i + 0] = (long)((ulong)lx * (ulong)ly);
    sl[4 * i + 1] = lx >> k;
    sl[4 * i + 2] = mul_hi(lx, ly);
    sl[4 * i + 3] = (long)(uint)x * (long)(int)y;   // 32 x 32 -> 64 without overflow
}

__kernel void int_divmod(__global const int* a, __global const int* b,
                         __global const long* la, __global const long* lb,
                         __global int* q, __global uint* uq, __global long* lq, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const int x = a[i], y = b[i];          // y != 0, never INT_MIN / -1
    q[6 * i + 0] = x / y;
    q[6 * i + 1] = x % y;
    q[6 * i + 2] = x / 4;                  // truncates toward zero, unlike x >> 2
    q[6 * i + 3] = x % 8;
    q[6 * i + 4] = x >> 2;
    q[6 * i + 5] = -x / 7 + (x % -5);
    uq[2 * i + 0] = (uint)x / (uint)y;
    uq[2 * i + 1] = (uint)x % (uint)y;
    const long u = la[i], v = lb[i];       // v != 0
    lq[2 * i + 0] = u / v;
    lq[2 * i + 1] = u % v;
}

// Narrow types: arithmetic happens in int after promotion and is truncated on store.
__kernel void int_narrow(__global const char* a, __global const char* b,
                         __global const short* c, __global const short* d,
                         __global char* co, __global uchar* uo, __global short* so,
                         __global int* io, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const char x = a[i], y = b[i];
    const uchar ux = (uchar)x, uy = (uchar)y;
    const short z = c[i], w = d[i];
    co[3 * i + 0] = x * y + z;
    co[3 * i + 1] = x / (y == 0 ? 1 : y);          // -128 / -1 = 128 truncates to -128
    co[3 * i + 2] = sub_sat(x, y);
    uo[4 * i + 0] = ux + uy;
    uo[4 * i + 1] = ux * 3;
    uo[4 * i + 2] = add_sat(ux, uy);
    uo[4 * i + 3] = (uchar)(x >> 1) ^ uy;
    so[2 * i + 0] = z * w;
    so[2 * i + 1] = (short)(z >> 3) + (w % 7);
    io[2 * i + 0] = (x < ux) + 2 * (z > w) + 4 * (ux + uy > 255);
    io[2 * i + 1] = (uchar)x + (char)uy + (ushort)z;
}

// Float <-> integer conversions.  f holds arbitrary floats (NaN, inf, huge, halfway
// values); g only values whose truncation fits the target types.
__kernel void int_convert(__global const float* f, __global const float* g,
                          __global const int* ii, __global const long* ll,
                          __global int* oi, __global uint* ou, __global uchar* o8,
                          __global short* o16, __global long* ol, __global float* of,
                          const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float x = f[i], y = g[i];
    // The spec maps NaN to 0 in every _sat conversion; PoCL 3.0 gives INT_MIN, UINT_MAX
    // and LONG_MIN for convert_int_sat*, convert_uint_sat and convert_long_sat, so NaN
    // reaches only the uchar and short conversions.
    const float xi = isnan(x) ? 0.0f : x;
    oi[6 * i + 0] = convert_int_sat(xi);
    oi[6 * i + 1] = convert_int_sat_rte(xi);
    oi[6 * i + 2] = convert_int_sat_rtn(xi);
    oi[6 * i + 3] = convert_int_sat_rtp(xi);
    oi[6 * i + 4] = (int)y;
    oi[6 * i + 5] = convert_int_rte(y);
    ou[2 * i + 0] = convert_uint_sat(xi);
    ou[2 * i + 1] = (uint)fabs(y);
    o8[i] = convert_uchar_sat(x);
    o16[i] = convert_short_sat_rte(x);
    ol[2 * i + 0] = convert_long_sat(xi);
    ol[2 * i + 1] = (long)y * 3;
    const int m = ii[i];
    const long L = ll[i];
    of[5 * i + 0] = (float)m;                  // round to nearest even
    of[5 * i + 1] = convert_float_rtz(m);
    of[5 * i + 2] = (float)L;
    of[5 * i + 3] = (float)(uint)m;
    of[5 * i + 4] = convert_float_rtp(L);
}

#define BITS_OUT 12

__kernel void int_bitops(__global const uint* a, __global const uint* b, __global uint* out, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const uint x = a[i], y = b[i];
    const int sx = (int)x, sy = (int)y;
    __global uint* o = out + BITS_OUT * i;
    o[0] = popcount(x);
    o[1] = clz(x);
    o[2] = rotate(x, y);                   // count modulo 32
    o[3] = (~x & y) | ((x ^ y) >> 3);
    o[4] = hadd(x, y);
    o[5] = rhadd(x, y);
    o[6] = abs_diff(sx, sy);
    o[7] = (uint)add_sat(sx, sy);
    o[8] = sub_sat(x, y);
    o[9] = mul_hi(x, y);
    o[10] = upsample((ushort)(x >> 16), (ushort)y);
    o[11] = (uint)clamp(sx, -1000, 1000) + (uint)abs(sy) + (uint)max(sx, sy) - (uint)min(sx, sy);
}

__kernel void int_select(__global const int* a, __global const int* b,
                         __global const float* fa, __global const float* fb,
                         __global int* oi, __global int4* ov, __global float* of, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const int x = a[i], y = b[i];
    oi[5 * i + 0] = select(x, y, x > y);              // scalar select: c != 0 picks y
    oi[5 * i + 1] = x > y ? (x > 0 ? 1 : 2) : (y > 0 ? 3 : 4);
    oi[5 * i + 2] = x < (uint)y;                      // compared as unsigned
    oi[5 * i + 3] = (x & 1) ? x : -(x / 2);
    oi[5 * i + 4] = !x + (x && y) * 2 + (x || !y) * 4;
    ov[i] = select((int4)(x), (int4)(y), (int4)(x, y, x ^ y, -1));   // vector: MSB of c
    const float u = fa[i], v = fb[i];
    of[2 * i + 0] = select(u, v, (int)(u < v));
    of[2 * i + 1] = u > v ? u - v : (v > 2.0f ? v : u * 0.5f);
}

__kernel void int_switch(__global const int* in, __global int* out, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const int v = in[i];
    int r = 0;
    switch (v % 7) {                        // v % 7 is negative for negative v
    case 0:
        r = 10;
        break;
    case 1:
    case 2:
        r = v * 2;
        /* fall through */
    case 3:
        r += 1;
        break;
    case -1:
        r = -100;
        break;
    case -3:
    case -6:
        r = v & 0xff;
        break;
    default:
        r = v;
    }
    int acc = 0;
    for (int k = 0; k < 12; ++k) {
        switch ((v + k) & 3) {
        case 0:
            continue;
        case 1:
            acc += k;
            break;
        case 2:
            acc ^= k << 2;
            break;
        default:
            acc -= 1;
        }
        if (acc > 40)
            break;
    }
    const char c = (char)v;
    int t;
    switch (c) {
    case 'a':
        t = 1;
        break;
    case -1:
        t = 2;
        break;
    case 0:
        t = 3;
        break;
    default:
        t = c > 0 ? 4 : 5;
    }
    out[3 * i + 0] = r;
    out[3 * i + 1] = acc;
    out[3 * i + 2] = t;
}

uint xorshift32(uint s)
{
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

uint fmix32(uint h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

ulong splitmix64(ulong z)
{
    z += 0x9e3779b97f4a7c15UL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    return z ^ (z >> 31);
}

__kernel void int_hash(__global const uint* seeds, __global uint* h32, __global ulong* h64,
                       const int n, const int rounds)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    uint s = seeds[i];
    ulong z = ((ulong)s << 32) | (uint)i;
    for (int r = 0; r < rounds; ++r) {
        s = fmix32(xorshift32(s) + (uint)r);
        z = splitmix64(z ^ s);
    }
    h32[i] = s;
    h64[i] = z;
}
