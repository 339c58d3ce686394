// Kernels that call non-kernel helper functions (loops, early returns, out-parameters,
// struct return values, barriers inside a helper).

uint collatz_steps(uint x, uint limit)
{
    if (x <= 1)
        return 0;
    uint steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++steps;
        if (steps >= limit)
            return limit;
    }
    return steps;
}

__kernel void helper_collatz(__global const uint* in, __global uint* out, const int n, const uint limit)
{
    const int i = get_global_id(0);
    if (i < n)
        out[i] = collatz_steps(in[i], limit);
}

int gcd_int(int a, int b)
{
    a = abs(a);
    b = abs(b);
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    while (b != 0) {
        const int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int lcm_int(int a, int b)
{
    const int g = gcd_int(a, b);
    if (g == 0)
        return 0;
    return abs(a / g * b);
}

__kernel void helper_gcd_lcm(__global const int* a, __global const int* b,
                             __global int* g, __global int* l, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    g[i] = gcd_int(a[i], b[i]);
    l[i] = lcm_int(a[i], b[i]);
}

bool is_prime(uint v)
{
    if (v < 2)
        return false;
    if (v < 4)
        return true;
    if (v % 2 == 0 || v % 3 == 0)
        return false;
    for (uint d = 5; d * d <= v; d += 6) {
        if (v % d == 0 || v % (d + 2) == 0)
            return false;
    }
    return true;
}

__kernel void helper_primes(__global const uint* in, __global int* flags,
                            __global uint* count, const int n)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const bool p = is_prime(in[i]);
    flags[i] = p ? 1 : 0;
    if (p)
        atomic_inc(count);
}

// First index in sorted[0, n) whose value is >= key.
int lower_bound(__global const float* sorted, int n, float key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (sorted[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Piecewise-linear interpolation through (xs, ys), clamped at both ends.
float interp(__global const float* xs, __global const float* ys, int m, float x)
{
    const int k = lower_bound(xs, m, x);
    if (k == 0)
        return ys[0];
    if (k == m)
        return ys[m - 1];
    const float t = (x - xs[k - 1]) / (xs[k] - xs[k - 1]);
    return ys[k - 1] + t * (ys[k] - ys[k - 1]);
}

__kernel void helper_search_interp(__global const float* xs, __global const float* ys,
                                   __global const float* queries, __global int* idx,
                                   __global float* vals, const int m, const int nq)
{
    const int i = get_global_id(0);
    if (i >= nq)
        return;
    const float q = queries[i];
    idx[i] = lower_bound(xs, m, q);
    vals[i] = interp(xs, ys, m, q);
}

typedef struct {
    float re;
    float im;
} cplx;

cplx cmul(cplx a, cplx b)
{
    cplx r;
    r.re = a.re * b.re - a.im * b.im;
    r.im = a.re * b.im + a.im * b.re;
    return r;
}

cplx cadd(cplx a, cplx b)
{
    cplx r = {a.re + b.re, a.im + b.im};
    return r;
}

int escape_time(cplx c, int max_iter)
{
    cplx z = {0.0f, 0.0f};
    for (int it = 0; it < max_iter; ++it) {
        if (z.re * z.re + z.im * z.im > 4.0f)
            return it;
        z = cadd(cmul(z, z), c);
    }
    return max_iter;
}

// 2-D: Mandelbrot escape times over a w x h window.
__kernel void helper_mandelbrot(__global int* iters, const int w, const int h,
                                const float x0, const float y0, const float step,
                                const int max_iter)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    cplx c;
    c.re = x0 + (float)x * step;
    c.im = y0 + (float)y * step;
    iters[y * w + x] = escape_time(c, max_iter);
}

void sort3(float a, float b, float c, float* lo, float* mid, float* hi)
{
    if (a > b) { const float t = a; a = b; b = t; }
    if (b > c) { const float t = b; b = c; c = t; }
    if (a > b) { const float t = a; a = b; b = t; }
    *lo = a;
    *mid = b;
    *hi = c;
}

// Sum of v over the work-group; every item of the group must call it (it has barriers).
float group_sum(__local float* scratch, float v)
{
    const int lid = get_local_id(0);
    const int lsize = get_local_size(0);
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lsize / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float total = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

// Median of three through private out-parameters, then a group sum of the medians
// computed by a helper that contains barriers (power-of-two local size).
__kernel void helper_median_groupsum(__global const float* a, __global const float* b,
                                     __global const float* c, __global float* med,
                                     __global float* sums, __local float* scratch, const int n)
{
    const int i = get_global_id(0);
    float lo = 0.0f, mid = 0.0f, hi = 0.0f;
    if (i < n) {
        sort3(a[i], b[i], c[i], &lo, &mid, &hi);
        med[i] = mid;
    }
    const float total = group_sum(scratch, hi - lo);
    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = total;
}
