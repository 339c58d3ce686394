// Math built-ins.  math_exact, math_decompose, math_horner_newton and math_f64 use only
// correctly rounded operations; the others use transcendental functions.

#define EXACT_OUT 14

__kernel void math_exact(__global const float* a, __global const float* b,
                         __global const float* c, __global float* o, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float x = a[i], y = b[i], z = c[i];
    __global float* r = o + EXACT_OUT * i;
    r[0] = sqrt(fabs(x));
    r[1] = x / y;
    r[2] = floor(x * 8.0f);
    r[3] = ceil(x * 8.0f);
    r[4] = trunc(x * 8.0f);
    r[5] = round(x * 8.0f);                // halfway cases away from zero
    r[6] = rint(x * 8.0f);                 // halfway cases to even
    r[7] = fmin(x, y);
    r[8] = fmax(x, y);
    r[9] = fma(x, y, z);                   // one rounding
    r[10] = copysign(x, y);
    r[11] = fmod(x, y);
    r[12] = fdim(x, y);
    r[13] = x * y - z;                     // two roundings (FP_CONTRACT OFF)
}

// Exact decompositions with pointer out-parameters.
__kernel void math_decompose(__global const float* a, __global float* fo, __global int* io, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float x = a[i];
    int e;
    const float m = frexp(x, &e);
    float ip;
    const float fp = modf(x, &ip);
    float fl;
    const float fr = fract(x, &fl);
    fo[6 * i + 0] = m;
    fo[6 * i + 1] = fp;
    fo[6 * i + 2] = ip;
    fo[6 * i + 3] = fr;
    fo[6 * i + 4] = ldexp(x, i % 9 - 4);
    fo[6 * i + 5] = nextafter(x, 0.0f);
    io[2 * i + 0] = e;
    io[2 * i + 1] = ilogb(x);
}

__kernel void math_exp_log(__global const float* x, __global const float* y,
                           __global float* o, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float u = x[i];      // [-5, 5]
    const float v = y[i];      // (0, 100]
    __global float* r = o + 8 * i;
    r[0] = exp(u);
    r[1] = exp2(u);
    r[2] = exp10(u * 0.5f);
    r[3] = expm1(u);
    r[4] = log(v);
    r[5] = log2(v);
    r[6] = log10(v);
    r[7] = log1p(v);
}

__kernel void math_trig(__global const float* x, __global const float* y,
                        __global float* o, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float u = x[i];      // [-3, 3]
    const float v = y[i];      // [-0.95, 0.95]
    __global float* r = o + 9 * i;
    float c;
    const float s = sincos(u, &c);
    r[0] = sin(u);
    r[1] = cos(u);
    r[2] = s;
    r[3] = c;
    r[4] = tan(u * 0.45f);
    r[5] = asin(v);
    r[6] = acos(v);
    r[7] = atan(u);
    r[8] = atan2(v, u);
}

__kernel void math_pow_hyp(__global const float* x, __global const float* y,
                           __global const float* z, __global float* o, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float b = x[i];      // [0.1, 10]
    const float e = y[i];      // [-3, 3]
    const float t = z[i];      // [-3, 3]
    __global float* r = o + 9 * i;
    r[0] = pow(b, e);
    r[1] = pown(b, i % 7 - 3);
    r[2] = powr(b, e);
    r[3] = rsqrt(b);
    r[4] = cbrt(t);
    r[5] = hypot(t, e);
    r[6] = tanh(t);
    r[7] = sinh(t);
    r[8] = cosh(t);
}

// mad() may be evaluated as a fused or an unfused multiply-add: inputs are positive so
// both stay within an ulp or two.
__kernel void math_mad(__global const float* a, __global const float* b,
                       __global const float* c, __global float* o, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    o[2 * i + 0] = mad(a[i], b[i], c[i]);
    o[2 * i + 1] = mad(a[i], a[i], mad(b[i], c[i], 1.0f));
}

// Horner evaluation, Newton iterations and a series, all with + - * / only.
__kernel void math_horner_newton(__global const float* x, __global float* poly,
                                 __global float* root, __global float* series, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float v = x[i];      // [0.5, 4]
    const float coef[6] = {0.5f, -1.25f, 0.75f, 2.0f, -0.375f, 0.0625f};
    float p = coef[5];
    for (int k = 4; k >= 0; --k)
        p = p * v + coef[k];
    poly[i] = p;

    float g = v > 1.0f ? v : 1.0f;   // Newton for sqrt(v)
    for (int it = 0; it < 6; ++it)
        g = 0.5f * (g + v / g);
    root[i] = g;

    float term = 1.0f, sum = 1.0f;   // exp(-v / 4) by its series
    const float w = -v * 0.25f;
    for (int k = 1; k < 12; ++k) {
        term = term * w / (float)k;
        sum += term;
    }
    series[i] = sum;
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Double precision with correctly rounded operations only.
__kernel void math_f64(__global const double* a, __global const double* b,
                       __global double* o, __global float* narrowed, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const double x = a[i], y = b[i];
    o[5 * i + 0] = sqrt(fabs(x));
    o[5 * i + 1] = x / y;
    o[5 * i + 2] = fma(x, y, -1.0);
    o[5 * i + 3] = floor(x * 1000.0) + x * y;
    o[5 * i + 4] = (double)(float)x - x;
    narrowed[i] = (float)(x * y);
}
