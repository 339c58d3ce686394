"""The OpenCL base header (simu/include/opencl/simu_opencl.h) and the OpenCL corpus.

clang declares the OpenCL built-in functions itself (-fdeclare-opencl-builtins); the header
provides the types, typedefs, enums and macros those declarations need plus the few built-ins
clang's table lacks.  These tests compile small kernels and check that each built-in family
lowers to a call of the Itanium-mangled function the interpreter implements.

Sources are bundled (one compile per family group) to keep the module fast.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from simu.errors import CompileError
from simu.frontend import CompileOptions, compile_file, compile_source

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "opencl"
CL20 = CompileOptions(clang_args=("-cl-std=CL2.0",))


@functools.lru_cache(maxsize=None)
def _ir(source: str, options: CompileOptions = CompileOptions()) -> str:
    return compile_source(source, "opencl", options, path="shim_test.cl").ir


def _calls(ir: str) -> set[str]:
    """Names of every function called in the module."""
    return set(re.findall(r"\bcall\b[^@\n]*@([\w.$]+)\(", ir))


def _kernel_body(ir: str, name: str) -> str:
    m = re.search(rf"^define [^\n]*spir_kernel [^\n]*@{name}\(.*?^}}", ir, re.S | re.M)
    assert m, f"kernel {name} not found in IR"
    return m.group(0)


# --------------------------------------------------------------------------------------
# Work-item functions and synchronisation.
# --------------------------------------------------------------------------------------

WORK_ITEM_SRC = """
__kernel void wi(__global ulong *out) {
  size_t s = get_global_id(0) + get_local_id(1) + get_group_id(2) + get_local_size(0)
           + get_num_groups(1) + get_global_size(2) + get_global_offset(0) + get_work_dim();
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE);
  out[get_global_id(0)] = s;
}
"""

CL20_SRC = """
int bump(int *p) { return atomic_add(p, 1); }          /* __generic pointer */
__kernel void k20(__global int *g, __global atomic_int *ga, __local atomic_uint *la,
                  __global float *f) {
  __local int tmp[16];
  tmp[get_local_id(0) % 16] = 0;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
  int x = atomic_fetch_add(ga, 1) + atomic_load(ga)
        + atomic_fetch_min_explicit(ga, 2, memory_order_relaxed)
        + atomic_exchange_explicit(ga, 3, memory_order_acq_rel, memory_scope_device);
  atomic_store(ga, 4);
  int expected = 0;
  x += atomic_compare_exchange_strong(ga, &expected, 5);
  x += (int)atomic_fetch_or(la, 1u);
  x += bump(g) + bump(tmp) + atomic_add(g, 1) + atomic_inc(tmp);
  x += ctz(x) + (int)get_local_linear_id() + (int)get_enqueued_local_size(0);
  x += work_group_reduce_add(x) + work_group_broadcast(x, 0);
  float *gen = f;
  x += (int)vload4(0, gen).x + (int)vload4(0, f).y;
  g[get_global_id(0)] = x;
}
"""


def test_work_item_functions_compile_without_include():
    ir = _ir(WORK_ITEM_SRC)
    assert "spir_kernel" in ir


def test_work_group_barrier_cl20():
    calls = _calls(_ir(CL20_SRC, CL20))
    assert "_Z18work_group_barrierj" in calls
    assert "_Z18work_group_barrierj12memory_scope" in calls


def test_fences_and_barrier_flags():
    ir = _ir(WORK_ITEM_SRC)
    assert re.search(r"call [^\n]*@_Z7barrierj\(i32 [^,)]*3\)", ir)  # LOCAL | GLOBAL
    assert re.search(r"call [^\n]*@_Z7barrierj\(i32 [^,)]*1\)", ir)
    assert re.search(r"call [^\n]*@_Z9mem_fencej\(i32 [^,)]*2\)", ir)
    assert re.search(r"call [^\n]*@_Z15write_mem_fencej\(i32 [^,)]*6\)", ir)


# --------------------------------------------------------------------------------------
# One source per group of families; each family lists the mangled names it must call.
# --------------------------------------------------------------------------------------

ATOMICS_SRC = """
__kernel void at(__global int *gi, __global uint *gu, __local int *li, __local uint *lu,
                 __global long *gl, __global ulong *gul, __local long *ll,
                 __global float *gf, __global int *out) {
  int r = atomic_add(gi, 1) + atomic_sub(gi, 1) + atomic_xchg(gi, 1) + atomic_inc(gi)
        + atomic_dec(gi) + atomic_cmpxchg(gi, 1, 2) + atomic_min(gi, 1) + atomic_max(gi, 1)
        + atomic_and(gi, 1) + atomic_or(gi, 1) + atomic_xor(gi, 1);
  r += atomic_add(li, 1) + atomic_sub(li, 1) + atomic_xchg(li, 1) + atomic_inc(li)
     + atomic_dec(li) + atomic_cmpxchg(li, 1, 2) + atomic_min(li, 1) + atomic_max(li, 1)
     + atomic_and(li, 1) + atomic_or(li, 1) + atomic_xor(li, 1);
  uint u = atomic_add(gu, 1u) + atomic_min(gu, 1u) + atomic_inc(lu) + atomic_max(lu, 2u)
         + atomic_cmpxchg(lu, 0u, 1u);
  float f = atomic_xchg(gf, 1.0f);
  r += atom_add(gi, 1) + atom_sub(li, 1) + atom_xchg(gi, 1) + atom_inc(gi) + atom_dec(li)
     + atom_cmpxchg(gi, 1, 2) + atom_min(gi, 1) + atom_max(li, 1) + atom_and(gi, 1)
     + atom_or(gi, 1) + atom_xor(li, 1) + (int)atom_add(gu, 1u);
  long l = atom_add(gl, 1L) + atom_max(gl, 2L) + atom_cmpxchg(ll, 1L, 2L)
         + (long)atom_inc(gul) + atom_xchg(ll, 3L);
  out[0] = r + (int)u + (int)f + (int)l;
}
"""

MATH_SRC = """
__kernel void mf(__global float *a, __global double *d, __global float4 *v) {
  float x = a[0];
  float ip; int ex;
  x = sin(x) + cos(x) + exp(x) + log(x) + pow(x, 2.0f) + sqrt(x) + rsqrt(x) + fabs(x)
    + floor(x) + ceil(x) + fmin(x, 1.0f) + fmax(x, 1.0f) + mad(x, x, x) + fma(x, x, x)
    + tan(x) + exp2(x) + log2(x) + atan2(x, 1.0f) + fmod(x, 2.0f) + hypot(x, x)
    + round(x) + trunc(x) + copysign(x, -1.0f) + pown(x, 3) + ldexp(x, 2) + nan(0u)
    + fract(x, &ip) + frexp(x, &ex) + sincos(x, &ip) + ip + (float)ex;
  x += native_sin(x) + native_cos(x) + native_exp(x) + native_log(x) + native_sqrt(x)
     + native_rsqrt(x) + native_recip(x) + native_divide(x, 3.0f) + native_powr(x, 2.0f);
  x += half_sin(x) + half_cos(x) + half_exp(x) + half_log(x) + half_sqrt(x) + half_rsqrt(x)
     + half_recip(x) + half_divide(x, 3.0f) + half_powr(x, 2.0f);
  float4 w = v[0];
  w = sin(w) + fmin(w, 1.0f) + fma(w, w, w);
  double y = d[0];
  y = sin(y) + sqrt(y) + pow(y, 2.0) + fma(y, y, y);
  a[1] = x; d[1] = y; v[1] = w;
}
"""

INTEGER_COMMON_SRC = """
__kernel void ic(__global int *gi, __global uint *gu, __global float *gf, __global long *gl,
                 __global uchar *gc) {
  int i = gi[0]; uint u = gu[0]; long l = gl[0]; char c = (char)gc[0];
  int4 i4 = vload4(0, gi);
  i = abs(i) + min(i, 3) + max(i, 2) + clamp(i, 0, 10) + mad24(i, i, i) + mul24(i, i)
    + popcount(i) + clz(i) + rotate(i, 3) + add_sat(i, i) + hadd(i, i) + mul_hi(i, i)
    + sub_sat(i, 1) + rhadd(i, 1) + abs_diff(i, 2) + mad_hi(i, i, i) + mad_sat(i, i, i)
    + upsample((short)1, (ushort)2);
  u = abs(u) + min(u, 3u) + max(u, 4u) + clamp(u, 1u, 9u) + mad24(u, u, u) + mul24(u, u)
    + rotate(u, 1u) + mul_hi(u, u);
  l = min(l, 5L) + mul_hi(l, l) + popcount(l);
  c = add_sat(c, c) + abs_diff(c, c) + hadd(c, c);
  i4 = clamp(i4, 0, 7) + max(i4, 1) + min(i4, i4);
  float x = gf[0];
  float4 f4 = vload4(0, gf);
  x = clamp(x, 0.0f, 1.0f) + mix(x, 1.0f, 0.5f) + step(0.5f, x) + smoothstep(0.0f, 1.0f, x)
    + sign(x) + degrees(x) + radians(x) + max(x, 1.0f) + min(x, 2.0f);
  f4 = clamp(f4, 0.0f, 1.0f) + mix(f4, f4, 0.25f) + step(0.5f, f4) + smoothstep(0.0f, 1.0f, f4);
  gi[1] = i + i4.x; gu[1] = u; gl[1] = l; gc[1] = (uchar)c; gf[1] = x + f4.y;
}
"""

GEOMETRIC_RELATIONAL_SRC = """
__kernel void gr(__global float4 *v, __global float *a, __global int *out) {
  float4 p = v[0], q = v[1];
  float3 p3 = p.xyz, q3 = q.xyz;
  float x = dot(p, q) + length(p) + distance(p, q) + normalize(p).x + cross(p3, q3).x
          + cross(p, q).y + fast_length(p) + fast_distance(p, q) + fast_normalize(p).z
          + dot(p.x, q.x) + length(p.xy);
  int4 m = isnan(p) + isinf(p) + isequal(p, q) + isnotequal(p, q) + isgreater(p, q)
         + isless(p, q) + isfinite(p) + signbit(p);
  float s = a[0];
  int r = isnan(s) + isinf(s) + isequal(s, x) + any(m) + all(m) + isordered(s, x);
  float4 sel = select(p, q, m) + bitselect(p, q, p);
  r += select(r, 1, 0) + bitselect(r, 1, 0);
  a[1] = x + sel.w;
  out[0] = r;
}
"""

VLOAD_SRC = """
__constant float ctab[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
__kernel void vl(__global float *g, __local float *l, __constant float *c,
                 __global half *gh, __local half *lh, __global int *gi) {
  float p[16];
  for (int i = 0; i < 16; ++i) p[i] = g[i];
  float2 a2 = vload2(0, g) + vload2(0, l) + vload2(0, p) + vload2(0, c);
  float4 a4 = vload4(0, g) + vload4(0, l) + vload4(0, p) + vload4(0, c) + vload4(1, ctab);
  float8 a8 = vload8(0, g) + vload8(0, l) + vload8(0, p) + vload8(0, c);
  float16 a16 = vload16(0, g) + vload16(0, l) + vload16(0, p) + vload16(0, c);
  int4 i4 = vload4(0, gi);
  vstore2(a2, 1, g); vstore4(a4, 1, l); vstore8(a8, 0, p); vstore16(a16, 1, g);
  vstore4(i4, 1, gi);
  float h = vload_half(0, gh) + vload_half(1, lh) + vload_half4(0, gh).x + vloada_half4(0, gh).y;
  vstore_half(h, 0, gh); vstore_half_rte(h, 1, lh); vstore_half4(a4, 1, gh);
  vstorea_half4_rtz(a4, 2, gh);
  g[0] = p[3] + h;
}
"""

CONVERT_SRC = """
__kernel void cv(__global float4 *v, __global int *gi, __global uchar4 *uc, __global float *out) {
  float4 f = v[0];
  int i = gi[0];
  int4 ci = convert_int4(f) + convert_int4_sat(f) + convert_int4_rte(f) + convert_int4_sat_rtz(f);
  uchar4 cu = convert_uchar4_sat(ci);
  float4 cf = convert_float4(ci) + convert_float4_rtz(cu);
  int c1 = convert_int(f.x) + convert_int_sat_rtn(f.y) + (int)convert_char_sat(i)
         + (int)convert_ulong(i) + (int)convert_short_rtp(f.z);
  double dd = convert_double(f.x);
  uint bits = as_uint(f.x);
  float back = as_float(bits);
  int4 ai = as_int4(f);
  float3 a3 = as_float3(f);
  uchar16 a16 = as_uchar16(f);
  float4 sh = shuffle(f, (uint4)(3, 2, 1, 0));
  float8 sh2 = shuffle2(f, f, (uint8)(0, 1, 2, 3, 4, 5, 6, 7));
  int2 shi = shuffle(ci, (uint2)(1, 0));
  uc[0] = cu;
  out[0] = cf.x + (float)c1 + (float)dd + back + (float)ai.y + a3.z + (float)a16.s5 + sh.x
         + sh2.s6 + (float)shi.y + (float)vec_step(float3);
}
"""

SUBGROUP_SRC = """
#if defined(cl_intel_subgroups) || defined(cl_amd_media_ops)
#error vendor extensions without declared built-ins must not be advertised
#endif
__kernel void sg(__global int *a, __global float *f) {
  int x = a[get_global_id(0)];
  x = sub_group_reduce_add(x) + sub_group_scan_inclusive_max(x) + sub_group_broadcast(x, 0)
    + (int)get_sub_group_local_id() + (int)get_sub_group_id() + (int)get_sub_group_size()
    + (int)get_num_sub_groups() + sub_group_any(x > 0) + sub_group_all(x > 0);
  float y = sub_group_reduce_min(f[0]);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = x + (int)y;
}
"""

SOURCES = {
    "work_item": (WORK_ITEM_SRC, CompileOptions()),
    "atomics": (ATOMICS_SRC, CompileOptions()),
    "math": (MATH_SRC, CompileOptions()),
    "integer_common": (INTEGER_COMMON_SRC, CompileOptions()),
    "geometric_relational": (GEOMETRIC_RELATIONAL_SRC, CompileOptions()),
    "vload": (VLOAD_SRC, CompileOptions()),
    "convert": (CONVERT_SRC, CompileOptions()),
    "cl20": (CL20_SRC, CL20),
    "subgroup": (SUBGROUP_SRC, CompileOptions()),
}

# family -> (source key, mangled names that must be called)
FAMILIES = {
    "work-item": ("work_item", [
        "_Z13get_global_idj", "_Z12get_local_idj", "_Z12get_group_idj", "_Z14get_local_sizej",
        "_Z14get_num_groupsj", "_Z15get_global_sizej", "_Z17get_global_offsetj",
        "_Z12get_work_dimv",
    ]),
    "barrier": ("work_item", [
        "_Z7barrierj", "_Z9mem_fencej", "_Z14read_mem_fencej", "_Z15write_mem_fencej",
    ]),
    "atomic-global-int": ("atomics", [
        "_Z10atomic_addPU3AS1Vii", "_Z10atomic_subPU3AS1Vii", "_Z11atomic_xchgPU3AS1Vii",
        "_Z10atomic_incPU3AS1Vi", "_Z10atomic_decPU3AS1Vi", "_Z14atomic_cmpxchgPU3AS1Viii",
        "_Z10atomic_minPU3AS1Vii", "_Z10atomic_maxPU3AS1Vii", "_Z10atomic_andPU3AS1Vii",
        "_Z9atomic_orPU3AS1Vii", "_Z10atomic_xorPU3AS1Vii",
    ]),
    "atomic-local-int": ("atomics", [
        "_Z10atomic_addPU3AS3Vii", "_Z10atomic_subPU3AS3Vii", "_Z11atomic_xchgPU3AS3Vii",
        "_Z10atomic_incPU3AS3Vi", "_Z10atomic_decPU3AS3Vi", "_Z14atomic_cmpxchgPU3AS3Viii",
        "_Z10atomic_minPU3AS3Vii", "_Z10atomic_maxPU3AS3Vii", "_Z10atomic_andPU3AS3Vii",
        "_Z9atomic_orPU3AS3Vii", "_Z10atomic_xorPU3AS3Vii",
    ]),
    "atomic-uint-float": ("atomics", [
        "_Z10atomic_addPU3AS1Vjj", "_Z10atomic_minPU3AS1Vjj", "_Z10atomic_incPU3AS3Vj",
        "_Z10atomic_maxPU3AS3Vjj", "_Z14atomic_cmpxchgPU3AS3Vjjj", "_Z11atomic_xchgPU3AS1Vff",
    ]),
    "atom-32": ("atomics", [
        "_Z8atom_addPU3AS1Vii", "_Z8atom_subPU3AS3Vii", "_Z9atom_xchgPU3AS1Vii",
        "_Z8atom_incPU3AS1Vi", "_Z8atom_decPU3AS3Vi", "_Z12atom_cmpxchgPU3AS1Viii",
        "_Z8atom_minPU3AS1Vii", "_Z8atom_maxPU3AS3Vii", "_Z8atom_andPU3AS1Vii",
        "_Z7atom_orPU3AS1Vii", "_Z8atom_xorPU3AS3Vii", "_Z8atom_addPU3AS1Vjj",
    ]),
    "atom-64": ("atomics", [
        "_Z8atom_addPU3AS1Vll", "_Z8atom_maxPU3AS1Vll", "_Z12atom_cmpxchgPU3AS3Vlll",
        "_Z8atom_incPU3AS1Vm", "_Z9atom_xchgPU3AS3Vll",
    ]),
    "math": ("math", [
        "_Z3sinf", "_Z3cosf", "_Z3expf", "_Z3logf", "_Z3powff", "_Z4sqrtf", "_Z5rsqrtf",
        "_Z4fabsf", "_Z5floorf", "_Z4ceilf", "_Z4fminff", "_Z4fmaxff", "_Z3madfff",
        "_Z3fmafff", "_Z3tanf", "_Z4exp2f", "_Z4log2f", "_Z5atan2ff", "_Z4fmodff",
        "_Z5hypotff", "_Z5roundf", "_Z5truncf", "_Z8copysignff", "_Z4pownfi", "_Z5ldexpfi",
        "_Z3nanj", "_Z5fractfPf", "_Z5frexpfPi", "_Z6sincosfPf",
    ]),
    "math-vector-double": ("math", [
        "_Z3sinDv4_f", "_Z4fminDv4_ff", "_Z3fmaDv4_fS_S_", "_Z3sind", "_Z4sqrtd", "_Z3powdd",
        "_Z3fmaddd",
    ]),
    "native": ("math", [
        "_Z10native_sinf", "_Z10native_cosf", "_Z10native_expf", "_Z10native_logf",
        "_Z11native_sqrtf", "_Z12native_rsqrtf", "_Z12native_recipf", "_Z13native_divideff",
        "_Z11native_powrff",
    ]),
    "half_": ("math", [
        "_Z8half_sinf", "_Z8half_cosf", "_Z8half_expf", "_Z8half_logf", "_Z9half_sqrtf",
        "_Z10half_rsqrtf", "_Z10half_recipf", "_Z11half_divideff", "_Z9half_powrff",
    ]),
    "integer": ("integer_common", [
        "_Z3absi", "_Z3minii", "_Z3maxii", "_Z5clampiii", "_Z5mad24iii", "_Z5mul24ii",
        "_Z8popcounti", "_Z3clzi", "_Z6rotateii", "_Z7add_satii", "_Z4haddii", "_Z6mul_hiii",
        "_Z7sub_satii", "_Z5rhaddii", "_Z8abs_diffii", "_Z6mad_hiiii", "_Z7mad_satiii",
        "_Z8upsamplest",
    ]),
    "integer-unsigned-long-char-vector": ("integer_common", [
        "_Z3absj", "_Z3minjj", "_Z3maxjj", "_Z5clampjjj", "_Z5mad24jjj", "_Z5mul24jj",
        "_Z6rotatejj", "_Z6mul_hijj", "_Z3minll", "_Z6mul_hill", "_Z8popcountl",
        "_Z7add_satcc", "_Z8abs_diffcc", "_Z4haddcc", "_Z5clampDv4_iii", "_Z3maxDv4_ii",
        "_Z3minDv4_iS_",
    ]),
    "common": ("integer_common", [
        "_Z5clampfff", "_Z3mixfff", "_Z4stepff", "_Z10smoothstepfff", "_Z4signf",
        "_Z7degreesf", "_Z7radiansf", "_Z3maxff", "_Z3minff", "_Z5clampDv4_fff",
        "_Z3mixDv4_fS_f", "_Z4stepfDv4_f", "_Z10smoothstepffDv4_f",
    ]),
    "geometric": ("geometric_relational", [
        "_Z3dotDv4_fS_", "_Z6lengthDv4_f", "_Z8distanceDv4_fS_", "_Z9normalizeDv4_f",
        "_Z5crossDv3_fS_", "_Z5crossDv4_fS_", "_Z11fast_lengthDv4_f", "_Z13fast_distanceDv4_fS_",
        "_Z14fast_normalizeDv4_f", "_Z3dotff", "_Z6lengthDv2_f",
    ]),
    "relational": ("geometric_relational", [
        "_Z5isnanDv4_f", "_Z5isinfDv4_f", "_Z7isequalDv4_fS_", "_Z10isnotequalDv4_fS_",
        "_Z9isgreaterDv4_fS_", "_Z6islessDv4_fS_", "_Z8isfiniteDv4_f", "_Z7signbitDv4_f",
        "_Z5isnanf", "_Z5isinff", "_Z7isequalff", "_Z3anyDv4_i", "_Z3allDv4_i",
        "_Z9isorderedff", "_Z6selectDv4_fS_Dv4_i", "_Z9bitselectDv4_fS_S_", "_Z6selectiii",
        "_Z9bitselectiii",
    ]),
    "vload": ("vload", [
        "_Z6vload2mPU3AS1Kf", "_Z6vload2mPU3AS3Kf", "_Z6vload2mPKf", "_Z6vload2mPU3AS2Kf",
        "_Z6vload4mPU3AS1Kf", "_Z6vload4mPU3AS3Kf", "_Z6vload4mPKf", "_Z6vload4mPU3AS2Kf",
        "_Z6vload8mPU3AS1Kf", "_Z6vload8mPU3AS3Kf", "_Z6vload8mPKf", "_Z6vload8mPU3AS2Kf",
        "_Z7vload16mPU3AS1Kf", "_Z7vload16mPU3AS3Kf", "_Z7vload16mPKf", "_Z7vload16mPU3AS2Kf",
        "_Z6vload4mPU3AS1Ki",
    ]),
    "vstore": ("vload", [
        "_Z7vstore2Dv2_fmPU3AS1f", "_Z7vstore4Dv4_fmPU3AS3f", "_Z7vstore8Dv8_fmPf",
        "_Z8vstore16Dv16_fmPU3AS1f", "_Z7vstore4Dv4_imPU3AS1i",
    ]),
    "vload_half-vstore_half": ("vload", [
        "_Z10vload_halfmPU3AS1KDh", "_Z10vload_halfmPU3AS3KDh", "_Z11vload_half4mPU3AS1KDh",
        "_Z12vloada_half4mPU3AS1KDh", "_Z11vstore_halffmPU3AS1Dh",
        "_Z15vstore_half_rtefmPU3AS3Dh", "_Z12vstore_half4Dv4_fmPU3AS1Dh",
        "_Z17vstorea_half4_rtzDv4_fmPU3AS1Dh",
    ]),
    "convert": ("convert", [
        "_Z12convert_int4Dv4_f", "_Z16convert_int4_satDv4_f", "_Z16convert_int4_rteDv4_f",
        "_Z20convert_int4_sat_rtzDv4_f", "_Z18convert_uchar4_satDv4_i",
        "_Z14convert_float4Dv4_i", "_Z18convert_float4_rtzDv4_h", "_Z11convert_intf",
        "_Z19convert_int_sat_rtnf", "_Z16convert_char_sati", "_Z13convert_ulongi",
        "_Z17convert_short_rtpf", "_Z14convert_doublef",
    ]),
    "shuffle": ("convert", [
        "_Z7shuffleDv4_fDv4_j", "_Z8shuffle2Dv4_fS_Dv8_j", "_Z7shuffleDv4_iDv2_j",
    ]),
    "cl20-atomics": ("cl20", [
        "_Z16atomic_fetch_addPU3AS1VU7_Atomicii", "_Z11atomic_loadPU3AS1VU7_Atomici",
        "_Z25atomic_fetch_min_explicitPU3AS1VU7_Atomicii12memory_order",
        "_Z24atomic_exchange_explicitPU3AS1VU7_Atomicii12memory_order12memory_scope",
        "_Z12atomic_storePU3AS1VU7_Atomicii",
        "_Z30atomic_compare_exchange_strongPU3AS1VU7_AtomiciPii",
        "_Z15atomic_fetch_orPU3AS3VU7_Atomicjj",
        "_Z22atomic_work_item_fencej12memory_order12memory_scope",
    ]),
    "cl20-generic-and-named": ("cl20", [
        # 1.x atomics on a __generic pointer (declared by simu_opencl_extra.h), and the named
        # overloads still chosen for named pointers.
        "_Z10atomic_addPU3AS4Vii", "_Z10atomic_addPU3AS1Vii", "_Z10atomic_incPU3AS3Vi",
        "_Z6vload4mPU3AS4Kf", "_Z6vload4mPU3AS1Kf",
    ]),
    "sub-group": ("subgroup", [
        "_Z20sub_group_reduce_addi", "_Z28sub_group_scan_inclusive_maxi",
        "_Z19sub_group_broadcastij", "_Z22get_sub_group_local_idv", "_Z16get_sub_group_idv",
        "_Z18get_sub_group_sizev", "_Z18get_num_sub_groupsv", "_Z13sub_group_anyi",
        "_Z13sub_group_alli", "_Z20sub_group_reduce_minf", "_Z17sub_group_barrierj",
    ]),
    "cl20-work-item-collective": ("cl20", [
        "_Z3ctzi", "_Z19get_local_linear_idv", "_Z23get_enqueued_local_sizej",
        "_Z21work_group_reduce_addi", "_Z20work_group_broadcastim",
    ]),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_lowers_to_mangled_calls(family):
    key, expected = FAMILIES[family]
    source, options = SOURCES[key]
    calls = _calls(_ir(source, options))
    missing = [name for name in expected if name not in calls]
    assert not missing, f"{family}: no call to {missing}"


@pytest.mark.parametrize("std", ["CL2.0", "CL3.0"])
@pytest.mark.parametrize("key", ["atomics", "vload"])
def test_named_address_space_overloads_kept_at_cl20_and_cl30(key, std):
    """With generic address space available, named pointers still pick the named overloads,
    so the interpreter sees the same mangled names at every version."""
    source, _ = SOURCES[key]
    expected = {name for k, names in FAMILIES.values() if k == key for name in names}
    calls = _calls(_ir(source, CompileOptions(clang_args=(f"-cl-std={std}",))))
    assert expected <= calls, sorted(expected - calls)


def test_as_type_is_a_bitcast_not_a_call():
    ir = _ir(CONVERT_SRC)
    assert not any(name.startswith(("as_", "_Z6as_", "_Z7as_")) for name in _calls(ir))
    assert "bitcast" in ir or "shufflevector" in ir


def test_printf():
    ir = _ir('__kernel void p(int x) { printf("x=%d %f\\n", x, 1.5f); }')
    assert "printf" in _calls(ir)
    assert re.search(r"declare [^\n]*@printf\(ptr addrspace\(2\)[^)]*, \.\.\.\)", ir)


# --------------------------------------------------------------------------------------
# Types, macros and memory spaces.
# --------------------------------------------------------------------------------------

def test_scalar_and_vector_types_and_macros():
    decls = []
    for base in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                 "float", "double", "half"):
        for n in ("", "2", "3", "4", "8", "16"):
            decls.append(f"  __private {base}{n} *p_{base}{n} = 0;")
    src = (
        "__kernel void t(__global float *f, __global double *d, __global long *l) {\n"
        + "\n".join(decls)
        + """
  _Static_assert(sizeof(size_t) == 8 && sizeof(ptrdiff_t) == 8, "size types");
  _Static_assert(sizeof(intptr_t) == 8 && sizeof(uintptr_t) == 8, "pointer-size ints");
  _Static_assert(sizeof(uchar) == 1 && sizeof(ushort) == 2 && sizeof(uint) == 4, "uints");
  _Static_assert(sizeof(ulong) == 8 && sizeof(float3) == 16 && sizeof(half8) == 16, "sizes");
  _Static_assert(sizeof(double16) == 128 && vec_step(int3) == 4, "vectors");
  _Static_assert(CLK_LOCAL_MEM_FENCE == 1 && CLK_GLOBAL_MEM_FENCE == 2, "fence flags");
  _Static_assert(CLK_IMAGE_MEM_FENCE == 4, "image fence");
  _Static_assert(CHAR_BIT == 8 && CHAR_MAX == 127 && SCHAR_MIN == -128, "char limits");
  _Static_assert(UCHAR_MAX == 255 && SHRT_MAX == 32767 && SHRT_MIN == -32768, "short");
  _Static_assert(USHRT_MAX == 65535 && INT_MAX == 2147483647, "int limits");
  _Static_assert(INT_MIN == -2147483647 - 1 && UINT_MAX == 4294967295u, "int limits");
  _Static_assert(LONG_MAX == 9223372036854775807L && ULONG_MAX == 18446744073709551615UL, "long");
  _Static_assert(FLT_DIG == 6 && FLT_MANT_DIG == 24 && DBL_MANT_DIG == 53, "float params");
  cl_mem_fence_flags flags = CLK_LOCAL_MEM_FENCE;
  f[0] = FLT_MAX;
  f[1] = M_PI_F;
  f[2] = FLT_EPSILON;
  f[3] = MAXFLOAT + HUGE_VALF + INFINITY + NAN + FLT_MIN + M_E_F + M_SQRT2_F + M_LN2_F;
  d[0] = M_PI;
  d[1] = DBL_EPSILON + DBL_MAX + DBL_MIN + HUGE_VAL + M_E + M_SQRT1_2 + M_LOG2E;
  l[0] = flags;
}
"""
    )
    ir = _ir(src)
    assert "store float 0x47EFFFFFE0000000" in ir        # FLT_MAX
    assert "store float 0x400921FB60000000" in ir        # M_PI_F
    assert "store float 0x3E80000000000000" in ir        # FLT_EPSILON = 2^-23
    assert "store double 0x400921FB54442D18" in ir       # M_PI


def test_cl12_has_no_cl20_types_but_cl20_has_them():
    probe = """
#if __OPENCL_C_VERSION__ < 200 && defined(ATOMIC_VAR_INIT)
#error ATOMIC_VAR_INIT is a CL2.0 macro
#endif
#if __OPENCL_C_VERSION__ >= 200 && !defined(ATOMIC_VAR_INIT)
#error ATOMIC_VAR_INIT missing at CL2.0
#endif
__kernel void k(__global int *out) {
#if __OPENCL_C_VERSION__ >= 200
  out[0] = memory_order_seq_cst + memory_scope_work_group + memory_scope_device;
#else
  out[0] = 1;
#endif
}
"""
    assert "spir_kernel" in _ir(probe)
    ir = _ir(probe, CL20)
    assert "spir_kernel" in ir


def test_local_array_in_kernel_body():
    src = """
__kernel void k(__global float *out) {
  __local float tile[64];
  int l = get_local_id(0);
  tile[l] = (float)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[63 - l];
}
"""
    ir = _ir(src)
    assert re.search(r"@[\w.]*tile[\w.]* = [^\n]*addrspace\(3\) global \[64 x float\]", ir)
    body = _kernel_body(ir, "k")
    assert re.search(r"store float [^\n]*ptr addrspace\(3\)", body)
    assert re.search(r"load float, ptr addrspace\(3\)", body)


def test_local_pointer_parameter():
    src = """
__kernel void k(__global float *out, __local float *scratch, __local int4 *v) {
  int l = get_local_id(0);
  scratch[l] = 1.0f;
  v[l] = (int4)(l);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = scratch[l ^ 1] + (float)v[l ^ 1].w;
}
"""
    ir = _ir(src)
    define = re.search(r"^define [^\n]*spir_kernel [^\n]*@k\(([^\n]*)\)", ir, re.M)
    assert define and define.group(1).count("ptr addrspace(3)") == 2
    assert "ptr addrspace(1)" in define.group(1)


def test_constant_array_with_initialiser():
    src = """
__constant float weights[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
__constant int4 offsets = (int4)(1, 2, 3, 4);
__kernel void k(__global float *out, __constant float *extra) {
  int i = get_global_id(0);
  out[i] = weights[i % 5] * extra[0] + (float)offsets.z;
}
"""
    ir = _ir(src)
    assert re.search(r"@weights = [^\n]*addrspace\(2\) constant \[5 x float\] \[float", ir)
    assert re.search(r"load float, ptr addrspace\(2\)", _kernel_body(ir, "k"))


def test_structs_vectors_and_helper_function():
    src = """
typedef struct { float4 pos; int id; float w; } Particle;

float4 advance(float4 p, float dt) { return p + (float4)(dt, dt, dt, 0.0f); }

void store_id(__global int *ids, int i, int v) { ids[i] = v; }

__kernel void step(__global Particle *ps, __global int *ids, float dt) {
  int i = get_global_id(0);
  Particle p = ps[i];
  p.pos = advance(p.pos, dt * p.w);
  p.pos.xy = p.pos.yx;
  float3 v = p.pos.xyz * 2.0f;
  ps[i] = p;
  ps[i].w = v.z + p.pos.s3;
  store_id(ids, i, p.id);
}
"""
    ir = _ir(src)
    body = _kernel_body(ir, "step")
    assert "<4 x float>" in body
    # The helpers are inlined into the kernel (the machine needs no call frames).
    assert "advance" not in _calls(body) and "store_id" not in _calls(body)
    assert re.search(r"store i32 [^\n]*ptr addrspace\(1\)", body)


def test_debug_location_of_a_store():
    src = """__kernel void k(__global int *out, __local int *tmp) {
  int i = get_global_id(0);
  int twice = i * 2;

  out[i] = twice;
  tmp[i] = 7;
}
"""
    ir = _ir(src)
    body = _kernel_body(ir, "k")
    locations = {m.group(1): int(m.group(2))
                 for m in re.finditer(r"^!(\d+) = !DILocation\(line: (\d+)", ir, re.M)}
    lines = {}
    for m in re.finditer(r"^\s*store (i32 [^\n]*?), !dbg !(\d+)", body, re.M):
        lines[m.group(1)] = locations[m.group(2)]
    to_global = [line for text, line in lines.items() if "addrspace(1)" in text]
    to_local = [line for text, line in lines.items() if "addrspace(3)" in text and "7" in text]
    assert to_global == [5]
    assert to_local == [6]


def test_broken_kernel_names_file_and_line(tmp_path):
    path = tmp_path / "broken.cl"
    path.write_text("__kernel void k(__global int *out) {\n"
                    "  int i = get_global_id(0);\n"
                    "  out[i] = undeclared_variable;\n"
                    "}\n")
    with pytest.raises(CompileError) as info:
        compile_file(path)
    message = str(info.value)
    assert "broken.cl" in message
    assert re.search(r"broken\.cl:3:\d+: error", message), message
    assert "undeclared_variable" in message


def test_broken_source_names_line():
    with pytest.raises(CompileError) as info:
        compile_source("__kernel void k(__global int *out) {\n  out[0] = 1\n}\n", "opencl",
                       path="missing_semicolon.cl")
    assert re.search(r"missing_semicolon\.cl:2:\d+: error", str(info.value)), str(info.value)


# --------------------------------------------------------------------------------------
# The OpenCL corpus: every file carries its labels and compiles.
# --------------------------------------------------------------------------------------

CORPUS_FILES = sorted(CORPUS.glob("*.cl"))
LAUNCH = re.compile(r"^// launch: grid=\d+(,\d+){0,2} block=\d+(,\d+){0,2}( \w+=-?\d+)*$")


def test_corpus_has_the_simple_kernels():
    assert len(CORPUS_FILES) >= 10


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus_kernel_compiles(path):
    lines = path.read_text().splitlines()
    assert lines[0].startswith("// expect: ")
    launch = [line for line in lines[:5] if line.startswith("// launch:")]
    assert launch and LAUNCH.match(launch[0]), launch
    module = compile_file(path)
    kernels = re.findall(r"^define [^\n]*spir_kernel [^\n]*@(\w+)\(", module.ir, re.M)
    assert kernels, f"{path.name}: no kernel"
    # Scalar parameters named in the launch line exist in the kernel signature.
    names = [kv.split("=")[0] for kv in launch[0].split()[2:] if not kv.startswith(("grid=", "block="))]
    text = path.read_text()
    for name in names:
        assert re.search(rf"\bconst int {name}\b|\bint {name}\b", text), name
