"""Values of struct type on the machine: LLVM's two-result math intrinsics (``llvm.frexp`` returns
``{ float, i32 }``, ``llvm.modf``/``llvm.sincos`` ``{ float, float }``), C's two-result functions that
store through a pointer (``remquof``, libdevice's ``__nv_*``), and device functions returning a
``float2`` by value.  Each is a register of one lane array per field (program.proto_of), checked
against numpy at every optimisation level simu compiles at (issue 29, item 7)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from simu import codes
from simu.api import load_source
from simu.cli import app
from simu.frontend import CompileOptions
from simu.interp import mathlib, run
from simu.launch import Launch
from simu.pipeline import check_launches

runner = CliRunner()
N = 32

MATH = r"""
__global__ void k(const float *a, const double *d, float *of, int *oi, double *od, int *odi) {
    int i = threadIdx.x;
    int e, q, ed, qd;
    float ip, s, c;
    double ipd, sd, cd;
    of[8 * i + 0] = frexpf(a[i], &e);
    of[8 * i + 1] = modff(a[i], &ip);
    of[8 * i + 2] = ip;
    sincosf(a[i], &s, &c);
    of[8 * i + 3] = s;
    of[8 * i + 4] = c;
    of[8 * i + 5] = remquof(a[i], 0.75f, &q);
    oi[2 * i] = e;
    oi[2 * i + 1] = q;
    od[4 * i + 0] = frexp(d[i], &ed);
    od[4 * i + 1] = modf(d[i], &ipd);
    od[4 * i + 2] = ipd;
    od[4 * i + 3] = remquo(d[i], -0.75, &qd);
    sincos(d[i], &sd, &cd);
    of[8 * i + 6] = (float)sd;
    of[8 * i + 7] = (float)cd;
    odi[2 * i] = ed;
    odi[2 * i + 1] = qd;
}
"""


def _run_math(level: int):
    m = load_source(MATH, "cuda", CompileOptions(opt_level=level), path="math.cu")
    k = m.kernels[0]
    a = np.linspace(-7.3, 9.1, N).astype(np.float32)
    a[3], a[4] = 0.0, -0.0
    d = np.linspace(-5.5, 11.7, N)
    names = [p.name for p in k.params]
    outs = [np.zeros(8 * N, np.float32), np.zeros(2 * N, np.int32), np.zeros(4 * N), np.zeros(2 * N, np.int32)]
    r = run(m, k, Launch((1, 1, 1), (N, 1, 1), dict(zip(names, [a, d, *outs], strict=True))))
    assert r.outcome.completed, str(r.outcome)
    assert not r.memory_errors
    got = [r.buffers[names[2]].view(np.float32).reshape(N, 8), r.buffers[names[3]].view(np.int32).reshape(N, 2),
           r.buffers[names[4]].view(np.float64).reshape(N, 4), r.buffers[names[5]].view(np.int32).reshape(N, 2)]
    return m, a, d, got


def _remquo_expected(x: float, y: float) -> tuple[float, int]:
    r = math.remainder(x, y)
    n = round((x - r) / y)
    return r, int(math.copysign(abs(n) % 128, x / y))


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_two_result_math_functions_match_numpy(level):
    m, a, d, (of, oi, od, odi) = _run_math(level)
    ir = "\n".join(i.text for b in m.kernels[0].function.blocks for i in b.instrs)
    assert "@llvm.frexp.f32.i32" in ir and "{ float, float } @llvm.modf.f32" in ir  # the struct-valued forms
    mant, exp = np.frexp(a)
    assert (of[:, 0] == mant).all() and (oi[:, 0] == exp).all()
    frac, whole = np.modf(a)
    assert (of[:, 1] == frac).all() and (of[:, 2] == whole).all()
    assert np.signbit(of[4, 1]) and np.signbit(of[4, 2])  # modff(-0) = (-0, -0)
    assert np.allclose(of[:, 3], np.sin(a.astype(np.float64)), atol=1e-6)
    assert np.allclose(of[:, 4], np.cos(a.astype(np.float64)), atol=1e-6)
    want = [_remquo_expected(float(x), 0.75) for x in a]
    assert (of[:, 5] == np.array([w[0] for w in want], np.float32)).all()
    assert (oi[:, 1] == [w[1] for w in want]).all()
    mant_d, exp_d = np.frexp(d)
    assert (od[:, 0] == mant_d).all() and (odi[:, 0] == exp_d).all()
    frac_d, whole_d = np.modf(d)
    assert (od[:, 1] == frac_d).all() and (od[:, 2] == whole_d).all()
    want_d = [_remquo_expected(float(x), -0.75) for x in d]
    assert (od[:, 3] == [w[0] for w in want_d]).all() and (odi[:, 1] == [w[1] for w in want_d]).all()
    assert np.allclose(of[:, 6], np.sin(d), atol=1e-6) and np.allclose(of[:, 7], np.cos(d), atol=1e-6)


def test_stores_through_the_pointer_are_recorded_accesses():
    # remquof's quotient goes through memory the thread owns: a store of the calling thread, no race
    src = r"""
    __global__ void k(const float *a, int *q, float *r) {
        int i = threadIdx.x;
        r[i] = remquof(a[i], 2.0f, q + i);
    }
    __global__ void shared_quotient(const float *a, int *q, float *r) {
        int i = threadIdx.x;
        r[i] = remquof(a[i], 2.0f, q);
    }
    """
    m = load_source(src, "cuda", path="rq.cu")
    a = np.arange(N, dtype=np.float32)
    for k, racy in ((m.kernel("k"), False), (m.kernel("shared_quotient"), True)):
        args = dict(zip([p.name for p in k.params], [a, np.zeros(N, np.int32), np.zeros(N, np.float32)], strict=True))
        report = check_launches(m, k, [Launch((1, 1, 1), (N, 1, 1), args)])
        assert report.status == codes.ANALYSED, report.reason
        assert any(f.kind == "race" for f in report.findings) == racy, report.findings


INTRINSICS = """
define ptx_kernel void @k(ptr addrspace(1) %o, ptr addrspace(1) %oi, ptr addrspace(1) %a) {
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pa = getelementptr float, ptr addrspace(1) %a, i32 %i
  %x = load float, ptr addrspace(1) %pa
  %sc = call { float, float } @llvm.sincos.f32(float %x)
  %s = extractvalue { float, float } %sc, 0
  %c = extractvalue { float, float } %sc, 1
  %v0 = insertelement <2 x float> poison, float %x, i32 0
  %v = insertelement <2 x float> %v0, float %c, i32 1
  %fr = call { <2 x float>, <2 x i32> } @llvm.frexp.v2f32.v2i32(<2 x float> %v)
  %m = extractvalue { <2 x float>, <2 x i32> } %fr, 0
  %e = extractvalue { <2 x float>, <2 x i32> } %fr, 1
  %j = mul i32 %i, 4
  %p0 = getelementptr float, ptr addrspace(1) %o, i32 %j
  store float %s, ptr addrspace(1) %p0
  %p1 = getelementptr float, ptr addrspace(1) %p0, i32 1
  store float %c, ptr addrspace(1) %p1
  %p2 = getelementptr float, ptr addrspace(1) %p0, i32 2
  store <2 x float> %m, ptr addrspace(1) %p2
  %k2 = mul i32 %i, 3
  %q = getelementptr i32, ptr addrspace(1) %oi, i32 %k2
  store <2 x i32> %e, ptr addrspace(1) %q
  %q2 = getelementptr i32, ptr addrspace(1) %q, i32 2
  %rq = call float @__nv_remquof(float %x, float 1.500000e+00, ptr addrspace(1) %q2)
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare { float, float } @llvm.sincos.f32(float)
declare { <2 x float>, <2 x i32> } @llvm.frexp.v2f32.v2i32(<2 x float>)
declare float @__nv_remquof(float, float, ptr addrspace(1))
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"""


def test_struct_returning_intrinsics_vector_forms_and_libdevice_names():
    m = load_source(INTRINSICS, "llvm")
    k = m.kernel()
    n = 8
    a = np.linspace(-3, 5, n).astype(np.float32)
    names = [p.name for p in k.params]
    r = run(m, k, Launch((1, 1, 1), (n, 1, 1), dict(zip(names, [np.zeros(4 * n, np.float32),
                                                                np.zeros(3 * n, np.int32), a], strict=True))))
    assert r.outcome.completed, str(r.outcome)
    o = r.buffers[names[0]].view(np.float32).reshape(n, 4)
    oi = r.buffers[names[1]].view(np.int32).reshape(n, 3)
    s, c = np.sin(a.astype(np.float64)).astype(np.float32), np.cos(a.astype(np.float64)).astype(np.float32)
    assert (o[:, 0] == s).all() and (o[:, 1] == c).all()
    mant, exp = np.frexp(np.stack([a, c], axis=1))
    assert (o[:, 2:] == mant).all() and (oi[:, :2] == exp).all()
    assert (oi[:, 2] == [_remquo_expected(float(x), 1.5)[1] for x in a]).all()


def test_remquo_quotient_keeps_its_sign():
    # the quotient's low bits with the sign of x/y (the OpenCL built-in shares this function)
    r, q = mathlib.remquo(np.array([-5.0, 7.0, -7.0, 1000.0, 3.0, np.inf]), np.array([1.0, -2.0, 2.0, 1.0, 0.0, 1.0]))
    assert q.tolist() == [-5, -4, -4, 1000 % 128, 0, 0]
    assert r[:4].tolist() == [-0.0, -1.0, 1.0, 0.0] and np.isnan(r[4:]).all()


FLOAT2 = r"""
__device__ float2 scaled(float x, float y, float s) {
    if (x > y) return make_float2(x * s, y);
    float2 r;
    r.x = y * s;
    r.y = x + 1.0f;
    return r;
}
__device__ __noinline__ float2 swap(float2 v) { return make_float2(v.y, v.x); }
__global__ void k(float2 *a, const float *b) {
    int i = threadIdx.x;
    float2 acc = make_float2(0.0f, 0.0f);
    for (int j = 0; j < 3; j++) {
        float2 t = swap(scaled(a[i].x, b[i], (float)j));
        acc.x += t.x;
        acc.y += t.y;
    }
    a[i] = acc;
}
"""


def _float2_expected(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros_like(a)
    for j in range(3):
        s = np.float32(j)
        big = a[:, 0] > b
        sx = np.where(big, a[:, 0] * s, b * s)
        sy = np.where(big, b, a[:, 0] + np.float32(1))
        out[:, 0] += sy
        out[:, 1] += sx
    return out


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_device_function_returning_float2(level):
    m = load_source(FLOAT2, "cuda", CompileOptions(opt_level=level), path="f2.cu")
    k = m.kernels[0]
    rng = np.random.default_rng(7)
    a = rng.uniform(-4, 4, (N, 2)).astype(np.float32)
    b = rng.uniform(-4, 4, N).astype(np.float32)
    names = [p.name for p in k.params]
    r = run(m, k, Launch((1, 1, 1), (N, 1, 1), dict(zip(names, [a.copy(), b], strict=True))))
    assert r.outcome.completed, str(r.outcome)
    got = r.buffers[names[0]].view(np.float32).reshape(N, 2)
    assert (got == _float2_expected(a, b)).all()


CLI_MATH = r"""
__global__ void k(const float *a, float *o, int *e) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int ex, q;
    float ip, s, c;
    float m = frexpf(a[i], &ex);
    float f = modff(a[i], &ip);
    sincosf(a[i], &s, &c);
    float r = remquof(a[i], 0.75f, &q);
    o[i] = m + f + ip + s + c + r;
    e[i] = ex + q;
}
"""


def test_check_cli_runs_each_construct(tmp_path):
    (tmp_path / ".git").mkdir()
    for name, src in (("math.cu", CLI_MATH), ("f2.cu", FLOAT2)):
        path = tmp_path / name
        path.write_text(src)
        for extra in (["--grid", "1", "--block", "32"], ["--budget", "3"]):
            res = runner.invoke(app, ["check", str(path), *extra])
            assert res.exit_code == 0, res.output
            assert "Traceback" not in res.output and "analysed" in res.output


def test_float2_from_a_function_defined_in_another_file_is_unsupported_by_name(tmp_path):
    # separate compilation: no body to run, so the kernel is unsupported at the call, naming the callee
    (tmp_path / ".git").mkdir()
    path = tmp_path / "extern.cu"
    path.write_text("extern __device__ float2 f(float x, float y);\n"
                    "__global__ void k(float2 *a, float *b) {\n"
                    "    int i = threadIdx.x;\n"
                    "    a[i] = f(a[i].x, b[i]);\n"
                    "}\n")
    res = runner.invoke(app, ["check", str(path), "--grid", "1", "--block", "32"])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert "extern.cu:4" in res.output and "call to 'f'" in res.output and "declared but not defined" in res.output
