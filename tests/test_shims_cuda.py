"""The CUDA shim headers (simu/include/cuda) and the CUDA corpus.

clang runs with -nocudainc and `-include cuda_runtime.h`, so every CUDA name a .cu file uses
comes from our own headers.  These tests check that whole programs (host code included)
compile, and that every built-in family lowers to exactly the intrinsic, instruction or
plainly named function the interpreter implements (see the table in each header's comment).

Sources are bundled: one compile per family table, each built-in in its own extern "C"
kernel so that a check looks only at that kernel's body.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from simu.errors import CompileError
from simu.frontend import CompileOptions, compile_file, compile_source

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus" / "cuda"
SHIMS = ROOT / "simu" / "include" / "cuda"
O1 = CompileOptions(opt_level=1)


@functools.lru_cache(maxsize=None)
def _ir(source: str, options: CompileOptions = CompileOptions(), name: str = "shim_test.cu") -> str:
    return compile_source(source, "cuda", options, path=name).ir


def _kernel_body(ir: str, name: str) -> str:
    m = re.search(rf"^define [^\n]*ptx_kernel [^\n]*@{re.escape(name)}\(.*?^}}", ir, re.S | re.M)
    assert m, f"kernel {name} not found in IR"
    return m.group(0)


def _kernels(ir: str) -> list[str]:
    return re.findall(r"^define [^\n]*ptx_kernel [^\n]*@([\w.$]+)\(", ir, re.M)


# --------------------------------------------------------------------------------------
# Whole programs.
# --------------------------------------------------------------------------------------

HOST_PROGRAM = r"""
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

int main(int argc, char **argv) {
  const int n = 1024;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) h[i] = (float)i;
  float *d = NULL;
  cudaError_t err = cudaMalloc(&d, n * sizeof(float));
  if (err != cudaSuccess) {
    fprintf(stderr, "cudaMalloc: %s\n", cudaGetErrorString(err));
    return EXIT_FAILURE;
  }
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  int count = 0, dev = 0;
  cudaGetDeviceCount(&count);
  cudaSetDevice(0);
  cudaGetDevice(&dev);
  float *pinned, *managed;
  cudaMallocHost(&pinned, n * sizeof(float));
  cudaMallocManaged(&managed, n * sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  scale<<<dim3(4, 1, 1), dim3(256), 0, stream>>>(d, 0.5f, n);
  cudaStreamSynchronize(stream);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("h[1] = %f\n", h[1]);
  if (cudaPeekAtLastError() != cudaSuccess || cudaGetLastError() != cudaSuccess) return 1;
  cudaStreamDestroy(stream);
  cudaFreeHost(pinned);
  cudaFree(managed);
  cudaFree(d);
  free(h);
  return 0;
}
"""


def test_host_program_compiles():
    ir = _ir(HOST_PROGRAM)
    assert _kernels(ir) == ["_Z5scalePffi"]
    assert "@main" not in ir  # host code is parsed, never compiled


NO_INCLUDE = r"""
__global__ void no_include(float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = blockIdx.x + blockDim.x * gridDim.y;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[63 - threadIdx.x] + warpSize;
}
"""


def test_kernel_without_any_include():
    ir = _ir(NO_INCLUDE)
    assert _kernels(ir) == ["_Z10no_includePf"]
    assert "@llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)" in ir


def test_compile_error_points_at_user_line():
    with pytest.raises(CompileError) as info:
        compile_source("__global__ void k(int *a) {\n  a[threadIdx.x] = nope;\n}\n", "cuda", path="bad_shim.cu")
    assert re.search(r"bad_shim\.cu:2:\d+: error", str(info.value)), str(info.value)


# --------------------------------------------------------------------------------------
# Built-in variables.
# --------------------------------------------------------------------------------------

BUILTIN_VARS = r"""
extern "C" __global__ void vars(unsigned *o) {
  o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
  o[3] = blockIdx.x;  o[4] = blockIdx.y;  o[5] = blockIdx.z;
  o[6] = blockDim.x;  o[7] = blockDim.y;  o[8] = blockDim.z;
  o[9] = gridDim.x;   o[10] = gridDim.y;  o[11] = gridDim.z;
  o[12] = warpSize;
}
extern "C" __global__ void only_x(unsigned *o) { o[0] = threadIdx.x + blockIdx.x * blockDim.x; }
extern "C" __global__ void as_dim3(unsigned *o) {
  dim3 b = blockDim;
  uint3 t = threadIdx;
  dim3 g(gridDim);
  o[0] = b.x + b.y + b.z + t.x + g.z;
}
extern "C" __global__ void lane(unsigned *o) { o[0] = __simu_laneid() + __lanemask_lt(); }
"""


@pytest.mark.parametrize("reg", ["tid", "ctaid", "ntid", "nctaid"])
@pytest.mark.parametrize("axis", ["x", "y", "z"])
def test_builtin_variable_components(reg, axis):
    assert f"call noundef i32 @llvm.nvvm.read.ptx.sreg.{reg}.{axis}()" in _kernel_body(_ir(BUILTIN_VARS), "vars")


def test_warpsize_and_laneid():
    ir = _ir(BUILTIN_VARS)
    assert "@llvm.nvvm.read.ptx.sreg.warpsize()" in _kernel_body(ir, "vars")
    assert "@llvm.nvvm.read.ptx.sreg.laneid()" in _kernel_body(ir, "lane")


def test_only_the_used_component_is_read():
    body = _kernel_body(_ir(BUILTIN_VARS), "only_x")
    sregs = re.findall(r"@llvm\.nvvm\.read\.ptx\.sreg\.(\w+\.\w)\(", body)
    assert sorted(sregs) == ["ctaid.x", "ntid.x", "tid.x"]


def test_builtin_variables_convert_to_dim3_and_uint3():
    body = _kernel_body(_ir(BUILTIN_VARS), "as_dim3")
    for reg in ("ntid.x", "ntid.y", "ntid.z", "tid.x", "nctaid.z"):
        assert f"sreg.{reg}()" in body


def test_builtin_objects_leave_no_global():
    ir = _ir(BUILTIN_VARS)
    assert not re.search(r"@(threadIdx|blockIdx|blockDim|gridDim|warpSize)\b", ir)


# --------------------------------------------------------------------------------------
# Barriers and fences.
# --------------------------------------------------------------------------------------

SYNC = [
    ("syncthreads", "__syncthreads();", r"call void @llvm\.nvvm\.barrier\.cta\.sync\.aligned\.all\(i32 0\)"),
    ("syncthreads_count", "o[0] = __syncthreads_count(o[1]);",
     r"call [^\n]*i32 @llvm\.nvvm\.barrier\.cta\.red\.popc\.aligned\.all\(i32 0, i1 %"),
    ("syncthreads_and", "o[0] = __syncthreads_and(o[1]);",
     r"call [^\n]*i1 @llvm\.nvvm\.barrier\.cta\.red\.and\.aligned\.all\(i32 0, i1 %"),
    ("syncthreads_or", "o[0] = __syncthreads_or(o[1]);",
     r"call [^\n]*i1 @llvm\.nvvm\.barrier\.cta\.red\.or\.aligned\.all\(i32 0, i1 %"),
    ("syncwarp_full", "__syncwarp();", r"call void @llvm\.nvvm\.bar\.warp\.sync\(i32 -1\)"),
    ("syncwarp_mask", "__syncwarp((unsigned)o[1]);", r"call void @llvm\.nvvm\.bar\.warp\.sync\(i32 %"),
    ("threadfence", "__threadfence();", r"call void @llvm\.nvvm\.membar\.gl\(\)"),
    ("threadfence_block", "__threadfence_block();", r"call void @llvm\.nvvm\.membar\.cta\(\)"),
    ("threadfence_system", "__threadfence_system();", r"call void @llvm\.nvvm\.membar\.sys\(\)"),
]
SYNC_SRC = "\n".join(f'extern "C" __global__ void s_{n}(int *o) {{ {code} }}' for n, code, _ in SYNC)


@pytest.mark.parametrize("name,code,pattern", SYNC, ids=[s[0] for s in SYNC])
def test_barriers_and_fences(name, code, pattern):
    assert re.search(pattern, _kernel_body(_ir(SYNC_SRC), f"s_{name}"))


# --------------------------------------------------------------------------------------
# Atomics: plain atomicrmw / cmpxchg, relaxed (monotonic), no loops, no calls.
# --------------------------------------------------------------------------------------

_ITYPES = {"int": "i32", "unsigned": "i32", "unsigned long long": "i64", "long long": "i64",
           "float": "float", "double": "double", "unsigned short": "i16"}
ATOMICS = [  # (function, C type, atomicrmw operation or "cmpxchg")
    ("atomicAdd", "int", "add"), ("atomicAdd", "unsigned", "add"), ("atomicAdd", "unsigned long long", "add"),
    ("atomicAdd", "float", "fadd"), ("atomicAdd", "double", "fadd"),
    ("atomicSub", "int", "sub"), ("atomicSub", "unsigned", "sub"),
    ("atomicExch", "int", "xchg"), ("atomicExch", "unsigned", "xchg"),
    ("atomicExch", "unsigned long long", "xchg"), ("atomicExch", "float", "xchg"),
    ("atomicMin", "int", "min"), ("atomicMin", "unsigned", "umin"), ("atomicMin", "long long", "min"),
    ("atomicMin", "unsigned long long", "umin"), ("atomicMin", "float", "fmin"), ("atomicMin", "double", "fmin"),
    ("atomicMax", "int", "max"), ("atomicMax", "unsigned", "umax"), ("atomicMax", "long long", "max"),
    ("atomicMax", "unsigned long long", "umax"), ("atomicMax", "float", "fmax"), ("atomicMax", "double", "fmax"),
    ("atomicInc", "unsigned", "uinc_wrap"), ("atomicDec", "unsigned", "udec_wrap"),
    ("atomicAnd", "int", "and"), ("atomicAnd", "unsigned", "and"), ("atomicAnd", "unsigned long long", "and"),
    ("atomicOr", "int", "or"), ("atomicOr", "unsigned", "or"), ("atomicOr", "unsigned long long", "or"),
    ("atomicXor", "int", "xor"), ("atomicXor", "unsigned", "xor"), ("atomicXor", "unsigned long long", "xor"),
    ("atomicCAS", "int", "cmpxchg"), ("atomicCAS", "unsigned", "cmpxchg"),
    ("atomicCAS", "unsigned long long", "cmpxchg"), ("atomicCAS", "unsigned short", "cmpxchg"),
    # scoped variants lower to the same instructions
    ("atomicAdd_block", "int", "add"), ("atomicAdd_system", "float", "fadd"),
    ("atomicExch_block", "unsigned", "xchg"), ("atomicMax_system", "unsigned long long", "umax"),
    ("atomicInc_block", "unsigned", "uinc_wrap"), ("atomicCAS_block", "int", "cmpxchg"),
    ("atomicCAS_system", "unsigned long long", "cmpxchg"), ("atomicOr_system", "int", "or"),
]


def _atomic_kernel(i: int, fn: str, ctype: str) -> str:
    args = "p, v, o[1]" if fn.startswith("atomicCAS") else "p, v"
    return f'extern "C" __global__ void a_{i}({ctype} *p, {ctype} v, {ctype} *o) {{ o[0] = {fn}({args}); }}'


ATOMIC_SRC = "\n".join(_atomic_kernel(i, fn, t) for i, (fn, t, _) in enumerate(ATOMICS))


@pytest.mark.parametrize("index", range(len(ATOMICS)), ids=[f"{f}-{t.replace(' ', '_')}" for f, t, _ in ATOMICS])
def test_atomic_lowering(index):
    fn, ctype, op = ATOMICS[index]
    body = _kernel_body(_ir(ATOMIC_SRC), f"a_{index}")
    # float exchange goes through the bits: atomicrmw xchg on i32
    ty = "i32" if (op == "xchg" and ctype == "float") else _ITYPES[ctype]
    if op == "cmpxchg":
        assert re.search(rf"= cmpxchg ptr %[\w.]+, {ty} %[\w.]+, {ty} %[\w.]+ monotonic monotonic", body), body
    else:
        assert re.search(rf"= atomicrmw {op} ptr %[\w.]+, {ty} %[\w.]+ monotonic", body), body
    assert len(re.findall(r"\b(atomicrmw|cmpxchg)\b", body)) == 1
    assert not re.search(r"\bcall\b", body)


# --------------------------------------------------------------------------------------
# Warp primitives.
# --------------------------------------------------------------------------------------

WARP = [  # (name, statement, pattern, number of matches)
    ("shfl_i32", "o.i[0] = __shfl_sync(m, o.i[1], 3);", r"@llvm\.nvvm\.shfl\.sync\.idx\.i32\(i32 %", 1),
    ("shfl_u32", "o.u[0] = __shfl_sync(m, o.u[1], 3, 16);", r"@llvm\.nvvm\.shfl\.sync\.idx\.i32\(", 1),
    ("shfl_f32", "o.f[0] = __shfl_sync(m, o.f[1], 3);", r"@llvm\.nvvm\.shfl\.sync\.idx\.f32\(", 1),
    ("shfl_up_i32", "o.i[0] = __shfl_up_sync(m, o.i[1], 1);", r"@llvm\.nvvm\.shfl\.sync\.up\.i32\(", 1),
    ("shfl_up_f32", "o.f[0] = __shfl_up_sync(m, o.f[1], 1);", r"@llvm\.nvvm\.shfl\.sync\.up\.f32\(", 1),
    ("shfl_down_i32", "o.i[0] = __shfl_down_sync(m, o.i[1], 2);", r"@llvm\.nvvm\.shfl\.sync\.down\.i32\(", 1),
    ("shfl_down_f32", "o.f[0] = __shfl_down_sync(m, o.f[1], 2, 8);", r"@llvm\.nvvm\.shfl\.sync\.down\.f32\(", 1),
    ("shfl_xor_i32", "o.i[0] = __shfl_xor_sync(m, o.i[1], 4);", r"@llvm\.nvvm\.shfl\.sync\.bfly\.i32\(", 1),
    ("shfl_xor_f32", "o.f[0] = __shfl_xor_sync(m, o.f[1], 4);", r"@llvm\.nvvm\.shfl\.sync\.bfly\.f32\(", 1),
    ("shfl_i64", "o.l[0] = __shfl_sync(m, o.l[1], 3);", r"@llvm\.nvvm\.shfl\.sync\.idx\.i32\(", 2),
    ("shfl_down_u64", "o.ul[0] = __shfl_down_sync(m, o.ul[1], 1);", r"@llvm\.nvvm\.shfl\.sync\.down\.i32\(", 2),
    ("shfl_xor_f64", "o.d[0] = __shfl_xor_sync(m, o.d[1], 1);", r"@llvm\.nvvm\.shfl\.sync\.bfly\.i32\(", 2),
    ("shfl_up_f64", "o.d[0] = __shfl_up_sync(m, o.d[1], 1, 16);", r"@llvm\.nvvm\.shfl\.sync\.up\.i32\(", 2),
    ("ballot", "o.u[0] = __ballot_sync(m, o.i[1] > 0);", r"@llvm\.nvvm\.vote\.ballot\.sync\(i32 %[\w.]+, i1 %", 1),
    ("any", "o.i[0] = __any_sync(m, o.i[1]);", r"@llvm\.nvvm\.vote\.any\.sync\(i32 %[\w.]+, i1 %", 1),
    ("all", "o.i[0] = __all_sync(m, o.i[1]);", r"@llvm\.nvvm\.vote\.all\.sync\(i32 %[\w.]+, i1 %", 1),
    ("uni", "o.i[0] = __uni_sync(m, o.i[1]);", r"@llvm\.nvvm\.vote\.uni\.sync\(i32 %[\w.]+, i1 %", 1),
    ("activemask", "o.u[0] = __activemask();", r"@llvm\.nvvm\.activemask\(\)", 1),
    ("match_any_i32", "o.u[0] = __match_any_sync(m, o.i[1]);", r"@llvm\.nvvm\.match\.any\.sync\.i32\(", 1),
    ("match_any_f64", "o.u[0] = __match_any_sync(m, o.d[1]);", r"@llvm\.nvvm\.match\.any\.sync\.i64\(", 1),
    ("match_all_u32", "int p; o.u[0] = __match_all_sync(m, o.u[1], &p); o.i[2] = p;",
     r"call \{ i32, i1 \} @llvm\.nvvm\.match\.all\.sync\.i32p\(", 1),
    ("match_all_i64", "int p; o.u[0] = __match_all_sync(m, o.l[1], &p); o.i[2] = p;",
     r"@llvm\.nvvm\.match\.all\.sync\.i64p\(", 1),
    ("legacy_shfl", "o.i[0] = __shfl(o.i[1], 0);", r"@llvm\.nvvm\.shfl\.sync\.idx\.i32\(i32 -1,", 1),
    ("legacy_shfl_down", "o.f[0] = __shfl_down(o.f[1], 1);", r"@llvm\.nvvm\.shfl\.sync\.down\.f32\(i32 -1,", 1),
    ("legacy_shfl_xor", "o.i[0] = __shfl_xor(o.i[1], 1);", r"@llvm\.nvvm\.shfl\.sync\.bfly\.i32\(i32 -1,", 1),
    ("legacy_any", "o.i[0] = __any(o.i[1]);", r"@llvm\.nvvm\.vote\.any\.sync\(i32 -1,", 1),
    ("legacy_all", "o.i[0] = __all(o.i[1]);", r"@llvm\.nvvm\.vote\.all\.sync\(i32 -1,", 1),
    ("legacy_ballot", "o.u[0] = __ballot(o.i[1]);", r"@llvm\.nvvm\.vote\.ballot\.sync\(i32 -1,", 1),
    ("reduce_add", "o.i[0] = __reduce_add_sync(m, o.i[1]);", r"@llvm\.nvvm\.shfl\.sync\.idx\.i32\(", 1),
]
WARP_SRC = (
    "struct Out { int *i; unsigned *u; float *f; long long *l; unsigned long long *ul; double *d; };\n"
    + "\n".join(f'extern "C" __global__ void w_{n}(Out o, unsigned m) {{ {code} }}' for n, code, _, _ in WARP)
)


@pytest.mark.parametrize("name,code,pattern,count", WARP, ids=[w[0] for w in WARP])
def test_warp_primitives(name, code, pattern, count):
    body = _kernel_body(_ir(WARP_SRC), f"w_{name}")
    assert len(re.findall(pattern, body)) == count, body


SHFL_WIDTH_SRC = r"""
extern "C" __global__ void widths(int *o, unsigned m) {
  o[0] = __shfl_sync(m, o[1], 3, 8);
  o[2] = __shfl_up_sync(m, o[3], 1, 16);
  o[4] = __shfl_down_sync(m, o[5], 2);
  o[6] = __shfl_xor_sync(m, o[7], 1, 4);
  o[8] = __shfl_up_sync(m, o[9], 1);
}
"""


def test_shuffle_width_operand():
    # PTX's c operand: ((32 - width) << 8) | clamp, clamp = 0x1f except for shfl.up (0).
    # -O1 folds it to a constant.
    body = _kernel_body(_ir(SHFL_WIDTH_SRC, O1), "widths")
    assert re.search(r"shfl\.sync\.idx\.i32\(i32 %[\w.]+, i32 %[\w.]+, i32 3, i32 6175\)", body)  # (24<<8)|31
    assert re.search(r"shfl\.sync\.up\.i32\(i32 %[\w.]+, i32 %[\w.]+, i32 1, i32 4096\)", body)  # 16<<8
    assert re.search(r"shfl\.sync\.down\.i32\(i32 %[\w.]+, i32 %[\w.]+, i32 2, i32 31\)", body)
    assert re.search(r"shfl\.sync\.bfly\.i32\(i32 %[\w.]+, i32 %[\w.]+, i32 1, i32 7199\)", body)  # (28<<8)|31
    assert re.search(r"shfl\.sync\.up\.i32\(i32 %[\w.]+, i32 %[\w.]+, i32 1, i32 0\)", body)


# --------------------------------------------------------------------------------------
# Math library and integer intrinsics.
# --------------------------------------------------------------------------------------

MATH = [  # (statement, pattern that must appear, pattern that must not appear)
    # float functions that become LLVM intrinsics
    *[(f"o.f[0] = {fn}f(o.f[1]);", rf"@llvm\.{intr}\.f32\(", None) for fn, intr in [
        ("sqrt", "sqrt"), ("fabs", "fabs"), ("floor", "floor"), ("ceil", "ceil"), ("trunc", "trunc"),
        ("round", "round"), ("rint", "rint"), ("nearbyint", "nearbyint"), ("sin", "sin"), ("cos", "cos"),
        ("tan", "tan"), ("asin", "asin"), ("acos", "acos"), ("atan", "atan"), ("sinh", "sinh"),
        ("cosh", "cosh"), ("tanh", "tanh"), ("exp", "exp"), ("exp2", "exp2"), ("exp10", "exp10"),
        ("log", "log"), ("log2", "log2"), ("log10", "log10")]],
    *[(f"o.f[0] = {fn}f(o.f[1], o.f[2]);", rf"@llvm\.{intr}\.f32\(", None) for fn, intr in [
        ("pow", "pow"), ("atan2", "atan2"), ("fmin", "minnum"), ("fmax", "maxnum"), ("copysign", "copysign")]],
    ("o.f[0] = fmaf(o.f[1], o.f[2], o.f[3]);", r"@llvm\.fma\.f32\(", None),
    ("o.f[0] = fmodf(o.f[1], o.f[2]);", r"= frem [^\n]*float", None),
    ("o.f[0] = frexpf(o.f[1], o.i);", r"@llvm\.frexp\.f32\.i32\(", None),
    ("o.f[0] = ldexpf(o.f[1], 3);", r"@llvm\.ldexp\.f32\.i32\(", None),
    ("o.f[0] = modff(o.f[1], o.f + 2);", r"@llvm\.modf\.f32\(", None),
    ("o.l[0] = lroundf(o.f[1]);", r"@llvm\.lround\.i64\.f32\(", None),
    ("o.l[0] = llrintf(o.f[1]);", r"@llvm\.llrint\.i64\.f32\(", None),
    # double functions
    *[(f"o.d[0] = {fn}(o.d[1]);", rf"@llvm\.{fn}\.f64\(", None) for fn in
      ["sqrt", "fabs", "floor", "sin", "cos", "exp", "log", "tanh"]],
    ("o.d[0] = pow(o.d[1], o.d[2]);", r"@llvm\.pow\.f64\(", None),
    ("o.d[0] = fma(o.d[1], o.d[2], o.d[3]);", r"@llvm\.fma\.f64\(", None),
    ("o.d[0] = fmod(o.d[1], o.d[2]);", r"= frem [^\n]*double", None),
    # no LLVM intrinsic: calls of the plain libm name
    *[(f"o.f[0] = {fn}f(o.f[1]);", rf"call [^\n]*float @{fn}f\(", None) for fn in
      ["erf", "erfc", "expm1", "log1p", "cbrt", "tgamma", "lgamma", "acosh", "asinh", "atanh", "logb",
       "erfinv", "erfcinv", "normcdfinv", "j0", "y1"]],
    *[(f"o.d[0] = {fn}(o.d[1]);", rf"call [^\n]*double @{fn}\(", None) for fn in ["erf", "cbrt", "log1p"]],
    ("o.f[0] = hypotf(o.f[1], o.f[2]);", r"call [^\n]*float @hypotf\(", None),
    ("o.d[0] = hypot(o.d[1], o.d[2]);", r"call [^\n]*double @hypot\(", None),
    ("o.f[0] = remainderf(o.f[1], o.f[2]);", r"call [^\n]*float @remainderf\(", None),
    ("o.f[0] = scalbnf(o.f[1], 2);", r"call [^\n]*float @scalbnf\(", None),
    # C++ overloads stay in single precision
    ("o.f[0] = sqrt(o.f[1]);", r"@llvm\.sqrt\.f32\(", r"fpext|\.f64"),
    ("o.f[0] = sin(o.f[1]) + exp(o.f[2]);", r"@llvm\.sin\.f32\(", r"fpext|\.f64"),
    ("o.f[0] = pow(o.f[1], o.f[2]);", r"@llvm\.pow\.f32\(", r"fpext|\.f64"),
    ("o.f[0] = std::sqrt(o.f[1]) + std::fabs(o.f[2]);", r"@llvm\.sqrt\.f32\(", r"fpext|\.f64"),
    ("o.f[0] = erf(o.f[1]);", r"call [^\n]*float @erff\(", r"fpext"),
    ("o.d[0] = sqrt(o.i[1]);", r"@llvm\.sqrt\.f64\(", None),
    ("o.f[0] = abs(o.f[1]) + fabs(o.f[2]);", r"@llvm\.fabs\.f32\(", r"fpext"),
    ("o.i[0] = abs(o.i[1]);", r"@llvm\.abs\.i32\(", None),
    ("o.l[0] = abs(o.l[1]) + llabs(o.l[2]);", r"@llvm\.abs\.i64\(", None),
    ("o.i[0] = min(o.i[1], o.i[2]);", r"@llvm\.smin\.i32\(", None),
    ("o.i[0] = max(o.i[1], o.i[2]);", r"@llvm\.smax\.i32\(", None),
    ("o.u[0] = min(o.u[1], o.u[2]);", r"@llvm\.umin\.i32\(", None),
    ("o.u[0] = min(o.i[1], o.u[2]);", r"@llvm\.umin\.i32\(", None),
    ("o.u[0] = umax(o.u[1], o.u[2]);", r"@llvm\.umax\.i32\(", None),
    ("o.l[0] = max(o.l[1], o.l[2]);", r"@llvm\.smax\.i64\(", None),
    ("o.ul[0] = min(o.ul[1], o.ul[2]);", r"@llvm\.umin\.i64\(", None),
    ("o.f[0] = min(o.f[1], o.f[2]);", r"@llvm\.minnum\.f32\(", None),
    ("o.d[0] = max(o.d[1], o.d[2]);", r"@llvm\.maxnum\.f64\(", None),
    ("o.d[0] = max(o.f[1], o.d[2]);", r"@llvm\.maxnum\.f64\(", None),
    ("o.l[0] = min(o.i[1], o.l[2]);", r"@llvm\.smin\.i64\(", None),
    # CUDA's extra and fast functions
    ("o.f[0] = rsqrtf(o.f[1]);", r"@llvm\.sqrt\.f32\(", None),
    ("float s, c; sincosf(o.f[1], &s, &c); o.f[0] = s + c;", r"@llvm\.cos\.f32\(", None),
    ("o.f[0] = __expf(o.f[1]);", r"@llvm\.exp\.f32\(", None),
    ("o.f[0] = __sinf(o.f[1]) + __cosf(o.f[2]);", r"@llvm\.sin\.f32\(", None),
    ("o.f[0] = __logf(o.f[1]);", r"@llvm\.log\.f32\(", None),
    ("o.f[0] = __powf(o.f[1], o.f[2]);", r"@llvm\.pow\.f32\(", None),
    ("o.f[0] = __fdividef(o.f[1], o.f[2]);", r"= fdiv [^\n]*float", None),
    ("o.f[0] = __saturatef(o.f[1]);", r"@llvm\.minnum\.f32\(", None),
    ("o.f[0] = __fmul_rn(o.f[1], o.f[2]) + o.f[3];", r"= fmul float", r"fmul contract|llvm\.fma"),
    ("o.f[0] = __fadd_rn(o.f[1] * o.f[2], o.f[3]);", r"= fadd float", r"llvm\.fma"),
    ("o.f[0] = __frcp_rn(o.f[1]);", r"= fdiv [^\n]*float 1\.000000e\+00,", None),
    ("o.f[0] = __fsqrt_rn(o.f[1]);", r"@llvm\.sqrt\.f32\(", None),
    ("o.d[0] = __dmul_rn(o.d[1], o.d[2]);", r"= fmul double", r"contract"),
    # classification without llvm.is.fpclass
    ("o.i[0] = isnan(o.f[1]);", r"= fcmp [^\n]*une float (%[\w.]+), \1", r"is\.fpclass"),
    ("o.i[0] = isinf(o.f[1]);", r"= fcmp [^\n]*oeq float %[\w.]+, 0x7FF0000000000000", r"is\.fpclass"),
    ("o.i[0] = isfinite(o.d[1]);", r"= fcmp [^\n]*olt double %[\w.]+, 0x7FF0000000000000", r"is\.fpclass"),
    # reinterpretation and conversions
    ("o.f[0] = __int_as_float(o.i[1]);", r"bitcast i32 %[\w.]+ to float", None),
    ("o.i[0] = __float_as_int(o.f[1]);", r"bitcast float %[\w.]+ to i32", None),
    ("o.l[0] = __double_as_longlong(o.d[1]);", r"bitcast double %[\w.]+ to i64", None),
    ("o.i[0] = __float2int_rn(o.f[1]);", r"@llvm\.rint\.f32\(", r"fpext"),
    ("o.i[0] = __float2int_rd(o.f[1]);", r"@llvm\.floor\.f32\(", r"fpext"),
    ("o.i[0] = __float2int_rz(o.f[1]);", r"= fptosi float", r"llvm\."),
    # integer intrinsics
    ("o.i[0] = __clz(o.i[1]);", r"@llvm\.ctlz\.i32\(", None),
    ("o.i[0] = __clzll(o.l[1]);", r"@llvm\.ctlz\.i64\(", None),
    ("o.i[0] = __ffs(o.i[1]);", r"@llvm\.cttz\.i32\(", None),
    ("o.i[0] = __ffsll(o.l[1]);", r"@llvm\.cttz\.i64\(", None),
    ("o.i[0] = __popc(o.u[1]);", r"@llvm\.ctpop\.i32\(", None),
    ("o.i[0] = __popcll(o.ul[1]);", r"@llvm\.ctpop\.i64\(", None),
    ("o.u[0] = __brev(o.u[1]);", r"@llvm\.bitreverse\.i32\(", None),
    ("o.ul[0] = __brevll(o.ul[1]);", r"@llvm\.bitreverse\.i64\(", None),
    ("o.i[0] = __mul24(o.i[1], o.i[2]);", r"= mul i32", r"mul nsw"),
    ("o.u[0] = __umul24(o.u[1], o.u[2]);", r"= and i32 %[\w.]+, 16777215", None),
    ("o.i[0] = __mulhi(o.i[1], o.i[2]);", r"= ashr i64 %[\w.]+, 32", None),
    ("o.u[0] = __umulhi(o.u[1], o.u[2]);", r"= lshr i64 %[\w.]+, 32", None),
    ("o.l[0] = __mul64hi(o.l[1], o.l[2]);", r"= lshr i64 %[\w.]+, 32", r"i128"),
    ("o.ul[0] = __umul64hi(o.ul[1], o.ul[2]);", r"= mul i64", r"i128"),
    ("o.u[0] = __funnelshift_l(o.u[1], o.u[2], o.u[3]);", r"@llvm\.fshl\.i32\(", None),
    ("o.u[0] = __funnelshift_r(o.u[1], o.u[2], o.u[3]);", r"@llvm\.fshr\.i32\(", None),
    ("o.i[0] = __dp4a(o.i[1], o.i[2], o.i[3]);", r"= mul nsw i32", None),
]
MATH_SRC = (
    "struct Out { int *i; unsigned *u; float *f; long long *l; unsigned long long *ul; double *d; };\n"
    + "\n".join(f'extern "C" __global__ void m_{i}(Out o) {{ {code} }}' for i, (code, _, _) in enumerate(MATH))
)


@pytest.mark.parametrize("index", range(len(MATH)), ids=[m[0] for m in MATH])
def test_math_lowering(index):
    code, present, absent = MATH[index]
    body = _kernel_body(_ir(MATH_SRC), f"m_{index}")
    assert re.search(present, body), body
    if absent:
        assert not re.search(absent, body), body
    # everything from the headers is inlined: only intrinsics and libm names are called
    for callee in re.findall(r"\bcall\b[^@\n]*@([\w.$]+)\(", body):
        assert callee.startswith("llvm.") or re.fullmatch(r"[a-z][a-z0-9]*", callee), callee


# --------------------------------------------------------------------------------------
# Device library: printf, assert, traps, memory functions, cache-hinted loads.
# --------------------------------------------------------------------------------------

DEVICE_SRC = r"""
#include <assert.h>
extern "C" __global__ void d_printf(int *o, float *f) { printf("o=%d f=%f\n", o[0], f[0]); }
extern "C" __global__ void d_assert(int *o) { assert(o[0] > 0); o[1] = 1; }
extern "C" __global__ void d_trap(int *o) { if (o[0]) __trap(); }
extern "C" __global__ void d_memory(int *o, int *p) {
  memcpy(o, p, 16);
  memset(o + 8, 0, 16);
  int *h = (int *)malloc(8);
  free(h);
}
extern "C" __global__ void d_ldg(const float *__restrict__ in, float *out) { out[0] = __ldg(in + 1); }
extern "C" __global__ void d_clock(long long *o) { o[0] = clock64(); }
"""


def test_printf_lowers_to_vprintf():
    body = _kernel_body(_ir(DEVICE_SRC), "d_printf")
    assert re.search(r"call i32 @vprintf\(ptr @[\w.]+, ptr %[\w.]+\)", body)


def test_assert_calls_assertfail():
    body = _kernel_body(_ir(DEVICE_SRC), "d_assert")
    assert re.search(r"call void @__assertfail\(ptr [^,]*@[\w.]+, ptr [^,]*@[\w.]+, i32 [^,]*\d+, "
                     r"ptr [^,]*@[\w.]+, i64 [^,]*1\)", body)
    ndebug = _ir(DEVICE_SRC, CompileOptions(defines=("NDEBUG",)))
    assert "__assertfail" not in _kernel_body(ndebug, "d_assert")


def test_trap_memory_ldg_clock():
    ir = _ir(DEVICE_SRC)
    assert "call void @llvm.trap()" in _kernel_body(ir, "d_trap")
    mem = _kernel_body(ir, "d_memory")
    assert "@llvm.memcpy." in mem and "@llvm.memset." in mem
    assert re.search(r"call [^\n]*ptr @malloc\(i64", mem) and re.search(r"call void @free\(ptr", mem)
    ldg = _kernel_body(ir, "d_ldg")
    assert re.search(r"= load float, ptr", ldg) and " call " not in ldg
    assert "@llvm.nvvm.read.ptx.sreg.clock64()" in _kernel_body(ir, "d_clock")


# --------------------------------------------------------------------------------------
# CUDA language features.
# --------------------------------------------------------------------------------------

FEATURES_SRC = r"""
#include <cuda_runtime.h>
__constant__ float coeff[4];
__device__ int counter;
__managed__ int managed_flag;

__device__ float weight(int i) { return coeff[i % 4] * 0.5f; }
__device__ __noinline__ float twice(float x) { return 2.0f * x; }

template <typename T>
__global__ void scale(T *a, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * s + (T)weight(i) + (T)twice((float)i);
}

__global__ void __launch_bounds__(256, 2) reverse(float *out) {
  extern __shared__ float dyn_buf[];
  __shared__ int static_buf[256];
  static_buf[threadIdx.x] = (int)threadIdx.x;
  dyn_buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = dyn_buf[blockDim.x - 1 - threadIdx.x] + static_buf[0];
  if (threadIdx.x == 0) atomicAdd(&counter, managed_flag);
}

int main() {
  float *f; double *d;
  cudaMalloc(&f, 1024 * sizeof(float));
  cudaMalloc((void **)&d, 1024 * sizeof(double));
  float c[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeff, c, sizeof(c));
  scale<float><<<4, 256>>>(f, 2.0f, 1024);
  scale<<<4, 256>>>(d, 3.0, 1024);
  reverse<<<1, 256, 256 * sizeof(float)>>>(f);
  int hc = 0;
  cudaMemcpyFromSymbol(&hc, counter, sizeof(int));
  managed_flag = 1;
  cudaDeviceSynchronize();
  cudaFree(f);
  cudaFree(d);
  return hc;
}
"""


def test_template_kernels_instantiated_from_host():
    kernels = _kernels(_ir(FEATURES_SRC))
    assert "_Z5scaleIfEvPT_S0_i" in kernels and "_Z5scaleIdEvPT_S0_i" in kernels


def test_device_functions_are_inlined():
    body = _kernel_body(_ir(FEATURES_SRC), "_Z5scaleIfEvPT_S0_i")
    assert not re.search(r"call [^\n]*@_Z\d+(weight|twice)", body)


def test_shared_constant_and_device_variables():
    ir = _ir(FEATURES_SRC)
    assert re.search(r"^@dyn_buf = external [^\n]*addrspace\(3\) global \[0 x float\]", ir, re.M)
    assert re.search(r"^@\w*static_buf\w* = internal addrspace\(3\) global \[256 x i32\]", ir, re.M)
    assert re.search(r"^@coeff = [^\n]*addrspace\(4\) [^\n]*constant \[4 x float\]", ir, re.M)
    assert re.search(r"^@counter = [^\n]*addrspace\(1\) [^\n]*global i32", ir, re.M)
    assert re.search(r"^@managed_flag = [^\n]*addrspace\(1\) [^\n]*global i32", ir, re.M)


COOP_SRC = r"""
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__device__ void sync_any(cg::thread_group g) { g.sync(); }

extern "C" __global__ void cg_block(int *o) {
  cg::thread_block block = cg::this_thread_block();
  o[block.thread_rank()] = block.size() + block.group_index().x + block.thread_index().y;
  block.sync();
}
extern "C" __global__ void cg_tile32(float *o) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = o[block.thread_rank()];
  for (int off = tile.size() / 2; off > 0; off /= 2) v += tile.shfl_down(v, off);
  tile.sync();
  if (tile.thread_rank() == 0) o[tile.meta_group_rank()] = v;
}
extern "C" __global__ void cg_tile8(int *o) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
  t8.sync();
  o[block.thread_rank()] = t8.shfl(o[0], 0) + t8.shfl_xor(o[1], 1) + t8.shfl_up(o[2], 1)
                         + t8.any(o[3]) + t8.all(o[4]) + (int)t8.ballot(o[5]) + (int)t8.num_threads()
                         + (int)t8.meta_group_size();
}
extern "C" __global__ void cg_nested(int *o) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  auto t4 = cg::tiled_partition<4>(t32);
  o[t32.thread_rank()] = t4.thread_rank() + t4.meta_group_rank();
}
extern "C" __global__ void cg_reduce(int *o) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  o[0] = cg::reduce(tile, o[1], cg::plus<int>()) + cg::reduce(tile, o[2], cg::greater<int>())
       + cg::inclusive_scan(tile, o[3]) + cg::exclusive_scan(tile, o[4]);
}
extern "C" __global__ void cg_generic(int *o) {
  cg::thread_block block = cg::this_thread_block();
  sync_any(block);
  sync_any(cg::tiled_partition<16>(block));
  cg::thread_group g = cg::tiled_partition(block, 8);
  o[0] = g.thread_rank() + g.size();
  cg::coalesced_group active = cg::coalesced_threads();
  o[1] = active.thread_rank() + active.size() + active.shfl(o[2], 0);
}
extern "C" __global__ void cg_grid(int *o) {
  cg::grid_group grid = cg::this_grid();
  o[grid.thread_rank()] = 1;
  grid.sync();
}
"""


def test_cooperative_groups_block():
    body = _kernel_body(_ir(COOP_SRC), "cg_block")
    assert "@llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)" in body


def test_cooperative_groups_tile32():
    body = _kernel_body(_ir(COOP_SRC), "cg_tile32")
    assert "call void @llvm.nvvm.bar.warp.sync(i32 -1)" in body
    assert "@llvm.nvvm.shfl.sync.down.f32(i32 -1," in body
    assert "@llvm.nvvm.read.ptx.sreg.laneid()" in body


def test_cooperative_groups_small_tiles():
    ir = _ir(COOP_SRC)
    t8 = _kernel_body(ir, "cg_tile8")
    assert re.search(r"call void @llvm\.nvvm\.bar\.warp\.sync\(i32 %", t8)  # the tile's own lanes
    for intr in ("shfl.sync.idx.i32", "shfl.sync.bfly.i32", "shfl.sync.up.i32", "vote.any.sync",
                 "vote.all.sync", "vote.ballot.sync"):
        assert f"@llvm.nvvm.{intr}(" in t8, intr
    assert "@llvm.nvvm.read.ptx.sreg.laneid()" in _kernel_body(ir, "cg_nested")
    assert "@llvm.nvvm.shfl.sync.bfly.i32(" in _kernel_body(ir, "cg_reduce")
    assert "@llvm.nvvm.shfl.sync.up.i32(" in _kernel_body(ir, "cg_reduce")


def test_cooperative_groups_generic_and_grid():
    ir = _ir(COOP_SRC)
    gen = _kernel_body(ir, "cg_generic")
    assert "@llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)" in gen and "@llvm.nvvm.bar.warp.sync(" in gen
    assert "@llvm.nvvm.activemask()" in gen
    assert "call void @__simu_grid_sync()" in _kernel_body(ir, "cg_grid")


FP16_SRC = r"""
#include <cuda_fp16.h>
extern "C" __global__ void half_ops(half *h, __half2 *h2, float *f) {
  int i = threadIdx.x;
  __half a = __float2half(f[i]);
  __half b = h[i];
  __half c = a + b * a - __hdiv(a, b);
  h[i] = __hfma(a, b, c);
  f[i] = __half2float(c) + (float)(a < b) + __low2float(h2[i]) + (float)hsqrt(b);
  h2[i] = __hadd2(h2[i], __floats2half2_rn(1.0f, 2.0f));
  h[i + 1] = __shfl_down_sync(0xffffffffu, a, 1);
}
extern "C" __global__ void half_atomic(__half *h) { atomicAdd(h, __float2half(1.0f)); }
extern "C" __global__ void half_modes(__half2 *h2, int *out) {  // rounding-mode conversions, half2 comparisons
  int i = threadIdx.x;
  __half2 v = __half2half2(__int2half_rd(i));
  out[i] = __hbeq2(v, h2[i]) + __hblt2(v, h2[i]) + __low2float(__hlt2(v, h2[i])) + __half2int_rn(__uint2half_ru(i));
}
"""


def test_cuda_fp16():
    ir = _ir(FP16_SRC)
    body = _kernel_body(ir, "half_ops")
    assert re.search(r"= fptrunc [^\n]*float %[\w.]+ to half", body)
    assert re.search(r"= fpext [^\n]*half %[\w.]+ to float", body)
    assert "@llvm.nvvm.shfl.sync.down.i32(" in body
    assert re.search(r"= atomicrmw fadd ptr %[\w.]+, half %[\w.]+ monotonic", _kernel_body(ir, "half_atomic"))
    assert "fcmp" in _kernel_body(ir, "half_modes")


# --------------------------------------------------------------------------------------
# Headers real projects include.
# --------------------------------------------------------------------------------------

OWN_HEADERS = ["stdio.h", "stdlib.h", "string.h", "math.h", "assert.h", "stddef.h", "stdint.h",
               "stdarg.h", "stdbool.h", "limits.h", "float.h", "cstdio", "cstdlib", "cstring", "cmath",
               "cassert", "cstddef", "cstdint", "cstdarg", "climits", "cfloat",
               "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h",
               "device_functions.h", "vector_types.h", "vector_functions.h", "math_constants.h",
               "cuda_fp16.h", "cooperative_groups.h", "cooperative_groups/reduce.h",
               "cooperative_groups/scan.h", "helper_cuda.h", "helper_math.h", "cuda_profiler_api.h",
               "curand_kernel.h", "curand.h", "cuda_bf16.h", "cuda_fp8.h", "mpi.h", "nvtx3/nvToolsExt.h",
               "nvtx3/nvToolsExtCudaRt.h", "nvtx3/nvToolsExtCuda.h", "nvToolsExtCudaRt.h"]

HEADERS_SRC = "".join(f"#include <{h}>\n" for h in OWN_HEADERS) + r"""
#if !defined(__CUDACC__) || __CUDA_ARCH__ != 700 || CUDART_VERSION < 12000 || CUDA_VERSION < 12000
#error "version macros"
#endif
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(alignof(float2) == 8 && alignof(double2) == 16 && alignof(int4) == 16, "align");
static_assert(alignof(char2) == 2 && alignof(uchar4) == 4 && alignof(short2) == 4, "small");
static_assert(alignof(longlong2) == 16 && sizeof(ulonglong4) == 32 && sizeof(double1) == 8, "wide");
static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4, "half");
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat162) == 4 && sizeof(__nv_fp8_e4m3) == 1 &&
              sizeof(__nv_fp8x2_e5m2) == 2 && sizeof(__nv_fp8x4_e4m3) == 4, "bf16, fp8");
static_assert(sizeof(uint) == 4 && sizeof(ushort) == 2 && sizeof(ulong) == sizeof(long), "glibc's names");
struct __align__(16) Aligned { float a; };
static_assert(alignof(Aligned) == 16, "__align__");
constexpr dim3 default_dim;
static_assert(default_dim.x == 1 && default_dim.y == 1 && default_dim.z == 1, "dim3");

extern "C" __global__ void vector_math(float3 *p, int n) {
  int i = threadIdx.x;
  float3 a = p[i], b = make_float3(1.0f);
  a += b * 2.0f - cross(a, b);
  p[i] = normalize(a) + make_float3(dot(a, b)) + clamp(a, 0.0f, 1.0f) + lerp(a, b, 0.5f);
}
extern "C" __global__ void uses_headers(float *f, curandState *st, int64_t *l) {
  int i = threadIdx.x;
  curand_init(1234ull, i, 0, &st[i]);
  f[i] = curand_uniform(&st[i]) + curand_normal(&st[i]) + CUDART_PI_F + FLT_EPSILON + (float)M_PI
       + (float)INT_MAX + std::sqrt(f[i]) + (float)(CHAR_BIT * sizeof(size_t));
  l[i] = INT64_MAX - (int64_t)UINT8_MAX + offsetof(float4, z);
  float2 v = make_float2(1.0f, 2.0f);
  double4 w = make_double4(1, 2, 3, 4);
  f[i] += v.y + (float)w.w + (float)make_uint3(1, 2, 3).z + (float)make_char4(1, 2, 3, 4).w;
}

int main(int argc, char **argv) {
  int dev = findCudaDevice(argc, (const char **)argv);
  float *d;
  checkCudaErrors(cudaMalloc(&d, 64));
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  printf("%s: %d SMs, warp %d, %zu bytes\n", prop.name, prop.multiProcessorCount, prop.warpSize,
         prop.totalGlobalMem);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  cudaProfilerStart();
  uses_headers<<<1, 32>>>(d, NULL, NULL);
  getLastCudaError("uses_headers failed");
  cudaProfilerStop();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  int min_grid, block;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, uses_headers, 0, 0);
  cudaFuncSetAttribute(uses_headers, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 16);
  char *buf = (char *)calloc(16, 1);
  snprintf(buf, 16, "%d", (int)strlen("abc"));
  assert(atoi(buf) == 3);
  free(buf);
  cudaFree(d);
  cudaDeviceReset();
  return EXIT_SUCCESS;
}
"""


def test_every_shim_header_exists():
    for h in OWN_HEADERS:
        # helper_cuda.h / helper_math.h are project-level helpers: searched last (cuda_fallback/)
        assert (SHIMS / h).is_file() or (SHIMS.parent / "cuda_fallback" / h).is_file(), h


def test_shim_headers_need_no_system_headers():
    # -nostdinc drops every system include directory: only simu/include/cuda remains.
    ir = _ir(HEADERS_SRC, CompileOptions(clang_args=("-nostdinc", "-nostdinc++")))
    assert sorted(_kernels(ir)) == ["uses_headers", "vector_math"]


LIBSTDCXX_SRC = r"""
#include <iostream>
#include <vector>
#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <chrono>
#include <cmath>
#include <cstdio>
using namespace std;

__global__ void k(float *a, int *b, int n) {
  int i = threadIdx.x;
  a[i] = std::min(a[i], 1.0f) + max(a[i], 2.0f) + abs(b[i]) + sqrt(a[i]) + std::sqrt(a[i]);
  b[i] = min(b[i], n);
}

int main() {
  std::vector<float> v(100);
  std::iota(v.begin(), v.end(), 0.0f);
  std::mt19937 gen(42);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  for (auto &x : v) x = dist(gen);
  std::sort(v.begin(), v.end());
  std::cout << "max " << *std::max_element(v.begin(), v.end()) << " " << std::to_string(1) << std::endl;
  float *d; int *e;
  cudaMalloc(&d, 400);
  cudaMalloc(&e, 400);
  k<<<1, 100>>>(d, e, 100);
  return 0;
}
"""


def test_host_cxx_standard_library_works_with_the_shims():
    try:
        ir = _ir(LIBSTDCXX_SRC)
    except CompileError as exc:
        if re.search(r"'(iostream|vector|algorithm|random|string|chrono|numeric)' file not found", str(exc)):
            pytest.skip("no C++ standard library on this machine")
        raise
    assert _kernels(ir) == ["_Z1kPfPii"]


def test_integer_arguments_of_cmath_functions_are_doubles():
    """``std::ldexp(unsigned, int)`` (a JSON library's half-float decoder in host code) is <cmath>'s integral
    overload, not ambiguous between the float and double ones."""
    ir = _ir("#include <cmath>\n"
             "double host(unsigned m, int *e) { return std::ldexp(m, -24) + std::frexp(3, e) + std::scalbn(2u, 1)"
             " + std::ilogb(8) + std::lround(3); }\n"
             "__global__ void k(float *a, int n) { a[threadIdx.x] = ldexp(1.0f, n) + ldexp(n, 2); }\n")
    assert _kernels(ir) == ["_Z1kPfi"]


# --------------------------------------------------------------------------------------
# The CUDA corpus: every file carries its labels and compiles.
# --------------------------------------------------------------------------------------

CORPUS_FILES = sorted(CORPUS.glob("*.cu"))
LAUNCH = re.compile(r"^// launch: grid=\d+(,\d+){0,2} block=\d+(,\d+){0,2}"
                    r"( (shared|warp|seed)=\d+| \w+=-?\d+| \w+=\w+:\d+(:\S+)?)*$")


def test_corpus_has_the_simple_kernels():
    assert len(CORPUS_FILES) >= 10


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus_kernel_compiles(path):
    text = path.read_text()
    lines = text.splitlines()
    assert lines[0].startswith("// expect: ")
    launch = [line for line in lines[:5] if line.startswith("// launch:")]
    assert launch and LAUNCH.match(launch[0]), launch
    module = compile_file(path)
    assert _kernels(module.ir), f"{path.name}: no kernel"
    # Every argument named in the launch line is a parameter of the kernel.
    signature = re.search(r"__global__\s+void\s+\w+\s*\(([^)]*)\)", text)
    assert signature, path.name
    for token in launch[0].split()[2:]:
        name, _, value = token.partition("=")
        if name in ("grid", "block", "shared", "warp", "seed"):
            continue
        assert re.search(rf"\b{name}\b", signature.group(1)), name
        if ":" in value:  # a buffer: must be a pointer parameter
            assert re.search(rf"\*\s*(__restrict__\s+)?{name}\b", signature.group(1)), name
