"""Headers and names that nvcc's toolkit and host compiler give a .cu file, which simu's shim provides too
(issue 28, "compile what nvcc compiles"): each file below did not compile before, and now compiles as a
whole (no device-only slice: no note), its kernels listed, run and analysed.

* ``cuda_bf16.h`` and ``cuda_fp8.h``: the types, conversions (checked bit for bit against tables of every
  value of the format) and bf16 arithmetic, host and device, run on the machine;
* ``nvtx3/nvToolsExt.h``, ``nvtx3/nvToolsExtCudaRt.h`` (and the other NVTX paths): no-op declarations;
* glibc's ``uint``, ``ushort``, ``ulong``, which nvcc's host headers declare without an include;
* ``mpi.h`` (angle brackets or quoted): MPI's host declarations.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from simu.api import load_file
from simu.cli import app
from simu.frontend import compile_file
from simu.interp import run
from simu.launch import Launch

runner = CliRunner()


def _write(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / ".git").mkdir(exist_ok=True)  # the configuration search stops here
    src = tmp_path / name
    src.write_text(text)
    return src


def _compiles_whole(src: Path) -> list[str]:
    """The kernels of ``src``, which must compile as it is (not through a device-only slice)."""
    module = compile_file(src)
    assert module.notes == [], module.notes
    return sorted(k.display_name for k in load_file(src).kernels)


def _check(src: Path, *args: str) -> dict:
    res = runner.invoke(app, ["check", str(src), "--format", "json", *args])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.stdout)


def _kernels(doc: dict) -> dict[str, dict]:
    return {k["name"]: k for f in doc["files"] for k in f["kernels"]}


# ---------------------------------------------------------------------------------------------
# cuda_bf16.h
# ---------------------------------------------------------------------------------------------

BF16 = r"""#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>

extern "C" __global__ void bf_ops(__nv_bfloat16 *h, __nv_bfloat162 *h2, const float *f, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 a = __float2bfloat16(f[i]);
  __nv_bfloat16 b = h[i];
  __nv_bfloat16 c = a + b * a - __hdiv(a, b);
  out[i] = __bfloat162float(c) + (float)(a < b) + __low2float(h2[i]) + (float)hsqrt(b);
  h2[i] = __hadd2(h2[i], __floats2bfloat162_rn(1.0f, 2.0f));
  h[i] = __hfma(a, b, c);
}

extern "C" __global__ void bf_round(const float *x, const double *d, unsigned short *rn, unsigned short *rz,
                                    unsigned short *rd, unsigned short *ru, unsigned short *dn, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  rn[i] = __bfloat16_as_ushort(__float2bfloat16_rn(x[i]));
  rz[i] = __bfloat16_as_ushort(__float2bfloat16_rz(x[i]));
  rd[i] = __bfloat16_as_ushort(__float2bfloat16_rd(x[i]));
  ru[i] = __bfloat16_as_ushort(__float2bfloat16_ru(x[i]));
  dn[i] = __bfloat16_as_ushort(__double2bfloat16(d[i]));
}

extern "C" __global__ void bf_sum(const float *x, __nv_bfloat16 *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, __float2bfloat16(x[i]));
}

// every thread adds into element 0 without an atomic: a race
extern "C" __global__ void bf_racy(const nv_bfloat16 *x, nv_bfloat16 *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) total[0] += x[i];
}

int main() {
  __nv_bfloat16 h = 1.5f;  // host side: constructors, operators, conversions
  h += __float2bfloat16(2.0f);
  nv_bfloat162 p = make_bfloat162(h, -h);
  __half q = __float2half(__bfloat162float(h));
  __nv_bfloat16_raw raw = h;
  printf("%f %f %d\n", __bfloat162float(p.y), (float)q, raw.x);
  return h > __nv_bfloat16(3) ? 0 : 1;
}
"""


def _bf16_bits_to_float(bits) -> np.ndarray:
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def _bf16_table() -> np.ndarray:
    """Every finite non-negative bfloat16 value, ascending (their bits are their ranks)."""
    return _bf16_bits_to_float(np.arange(0x7f80, dtype=np.uint16)).astype(np.float64)


def _bf16_reference(values, mode: str) -> np.ndarray:
    """The bfloat16 bits of each value (float64, exact), looked up in the table of every bfloat16: to nearest
    (ties to the even code), toward zero, down or up; beyond the largest finite, what IEEE rounding gives."""
    table = _bf16_table()
    out = []
    for v in np.asarray(values, np.float64):
        sign = 0x8000 if np.signbit(v) else 0
        a = abs(v)
        lo = int(np.searchsorted(table, a, side="right")) - 1  # table[lo] <= a
        if np.isinf(a):
            code = 0x7f80
        elif table[lo] == a:
            code = lo
        else:
            up = lo + 1  # 0x7f80 (infinity) past the largest finite
            toward_zero = {"rz": True, "rd": not sign, "ru": bool(sign)}.get(mode)
            if toward_zero is not None:
                code = lo if toward_zero else up
            else:
                hi = table[up] if up < len(table) else 2.0 ** 128
                code = lo if a - table[lo] < hi - a or (a - table[lo] == hi - a and lo % 2 == 0) else up
        out.append(sign | code)
    return np.array(out, np.uint16)


def test_bf16_program_compiles_and_its_kernels_run(tmp_path):
    src = _write(tmp_path, "bf16.cu", BF16)
    assert _compiles_whole(src) == ["bf_ops", "bf_racy", "bf_round", "bf_sum"]
    ir = compile_file(src).ir
    assert not re.search(r"\bbfloat\b", ir)  # never LLVM's bfloat type: integer and float instructions only
    module = load_file(src)

    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_normal(200).astype(np.float32) * np.float32(1000),
                        (rng.integers(0, 2**32, 200, dtype=np.uint64).astype(np.uint32)).view(np.float32),
                        np.array([0.0, -0.0, 1.0, 1.00390625, 1.01171875, 3.4e38, -3.4e38, 1e-40, np.inf, -np.inf],
                                 np.float32)])
    x = x[~np.isnan(x)]
    d = x.astype(np.float64) * (1 + 2.0 ** -30)
    d[:3] = [1.0 + 2.0 ** -8 + 2.0 ** -40, 1.0 + 2.0 ** -8, -(1.0 + 2.0 ** -8 + 2.0 ** -40)]  # one rounding, not two
    n = len(x)
    zeros = {k: np.zeros(n, np.uint16) for k in ("rn", "rz", "rd", "ru", "dn")}
    r = run(module, "bf_round", Launch(grid=((n + 63) // 64, 1, 1), block=(64, 1, 1),
                                       args={"x": x, "d": d, "n": n, **zeros}))
    assert r.outcome.completed and not r.memory_errors
    for mode in ("rn", "rz", "rd", "ru"):
        assert np.array_equal(r.buffers[mode], _bf16_reference(x, mode)), mode
    assert np.array_equal(r.buffers["dn"], _bf16_reference(d, "rn"))  # one rounding from double

    n = 64
    f = np.linspace(-2, 2, n).astype(np.float32)
    h = _bf16_reference(np.linspace(0.5, 3, n), "rn")
    h2 = _bf16_reference(np.linspace(1, 2, 2 * n), "rn")
    r = run(module, "bf_ops", Launch(grid=(2, 1, 1), block=(32, 1, 1),
                                     args={"h": h.copy(), "h2": h2.copy(), "f": f, "out": np.zeros(n, np.float32),
                                           "n": n}))
    assert r.outcome.completed and not r.memory_errors

    def rn(v):
        return _bf16_bits_to_float(_bf16_reference(v, "rn")).astype(np.float64)

    a, b = rn(f), _bf16_bits_to_float(h).astype(np.float64)
    c = rn(rn(a + rn(b * a)) - rn(a / b))  # each operation rounded once
    expected = (c + (a < b) + _bf16_bits_to_float(h2[0::2]) + rn(np.sqrt(b))).astype(np.float32)
    assert np.allclose(r.buffers["out"], expected, rtol=1e-6, atol=1e-6)
    assert np.array_equal(r.buffers["h"], _bf16_reference(a * b + c, "rn"))
    assert np.array_equal(_bf16_bits_to_float(r.buffers["h2"][1::2]), rn(_bf16_bits_to_float(h2[1::2]) + 2.0))

    ones = np.ones(n, np.float32)  # integers up to 256 are exact: the atomic sum is exactly 64
    r = run(module, "bf_sum", Launch(grid=(2, 1, 1), block=(32, 1, 1),
                                     args={"x": ones, "total": np.zeros(1, np.uint16), "n": n}))
    assert r.outcome.completed and not r.memory_errors
    assert _bf16_bits_to_float(r.buffers["total"])[0] == 64.0


def test_bf16_kernels_are_analysed(tmp_path):
    src = _write(tmp_path, "bf16.cu", BF16)
    doc = _check(src, "--grid", "1", "--block", "64", "--arg", "n=64")
    kernels = _kernels(doc)
    assert {k["status"] for k in kernels.values()} == {"analysed"}
    assert any(f["kind"] == "race" for f in kernels["bf_racy"]["findings"])
    assert not [f for f in kernels["bf_sum"]["findings"] if f["kind"] == "race"]  # the CAS loop is atomic


# ---------------------------------------------------------------------------------------------
# cuda_fp8.h
# ---------------------------------------------------------------------------------------------

FP8 = r"""#include <cuda_fp8.h>

extern "C" __global__ void to_fp8(const float *x, __nv_fp8_storage_t *q4, __nv_fp8_e5m2 *q5, float *back4,
                                  float *back5, unsigned char *nosat, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8_e4m3 a(x[i]);  // the constructors saturate to the largest finite value
  q4[i] = a.__x;
  q5[i] = __nv_fp8_e5m2(x[i]);
  back4[i] = float(a);
  back5[i] = static_cast<float>(q5[i]);
  nosat[2 * i] = __nv_cvt_float_to_fp8(x[i], __NV_NOSAT, __NV_E4M3);
  nosat[2 * i + 1] = __nv_cvt_double_to_fp8((double)x[i], __NV_NOSAT, __NV_E5M2);
}

int main() {
  __nv_fp8_e4m3 h(1.5f);
  float f = h;
  __nv_fp8x2_e4m3 pair(make_float2(1.0f, 2.0f));
  float2 g = static_cast<float2>(pair);
  __half_raw r = __nv_cvt_fp8_to_halfraw(h.__x, __NV_E4M3);
  __nv_fp8_e5m2 b(__float2bfloat16(3.0f));
  return (int)f + (int)g.y + r.x + (int)static_cast<float>(b);
}
"""


def _fp8_table(e4m3: bool) -> np.ndarray:
    """The value of each of the 256 codes (NaN for NaN codes)."""
    mbits, bias = (3, 7) if e4m3 else (2, 15)
    values = []
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        e, m = (code & 0x7f) >> mbits, code & ((1 << mbits) - 1)
        if e4m3 and code & 0x7f == 0x7f:
            values.append(np.nan)
        elif not e4m3 and e == 31:
            values.append(sign * np.inf if m == 0 else np.nan)
        elif e == 0:
            values.append(sign * m * 2.0 ** (1 - bias - mbits))
        else:
            values.append(sign * (1 + m / 2 ** mbits) * 2.0 ** (e - bias))
    return np.array(values)


def _fp8_reference(values, e4m3: bool, saturate: bool) -> np.ndarray:
    """Nearest code, ties to the even code; beyond the largest finite: itself when saturating, else what
    rounding with one more step gives (the code after it: e4m3's NaN, e5m2's infinity)."""
    table = _fp8_table(e4m3)
    largest, step = (448.0, 32.0) if e4m3 else (57344.0, 8192.0)
    finite = [c for c in range(128) if np.isfinite(table[c])]
    out = []
    for v in np.asarray(values, np.float64):
        if np.isnan(v):
            out.append(0x7f)
            continue
        sign = 0x80 if np.signbit(v) else 0
        a = abs(v)
        if a > largest:
            # half a step above: the tie goes to the even code, e4m3's 448 (0x7e) but e5m2's infinity (0x7c)
            beyond = a > largest + step / 2 or (a == largest + step / 2 and not e4m3)
            out.append(sign | ((0x7f if e4m3 else 0x7c) if beyond and not saturate else (0x7e if e4m3 else 0x7b)))
            continue
        dist = np.array([abs(table[c] - a) for c in finite])
        best = [finite[i] for i in np.flatnonzero(dist == dist.min())]
        out.append(sign | (min(best, key=lambda c: c % 2)))
    return np.array(out, np.uint8)


def test_fp8_program_compiles_and_its_conversions_are_exact(tmp_path):
    src = _write(tmp_path, "fp8.cu", FP8)
    assert _compiles_whole(src) == ["to_fp8"]
    rng = np.random.default_rng(3)
    specials = [0.0, -0.0, 448, 449, 464, 465, 500, 57344, 61440, 61441, 70000, np.inf, -np.inf, np.nan, 1e-9,
                2.0 ** -10, 1.5 * 2.0 ** -9, 2.0 ** -17, 3 * 2.0 ** -18, 2.0 ** -6, 2.0 ** -14]
    x = np.concatenate([rng.standard_normal(200) * 10, rng.standard_normal(100) * 1e-3, specials,
                        rng.integers(-2000, 2000, 100) / 7.0]).astype(np.float32)
    n = len(x)

    def zeros(dtype, k=1):
        return np.zeros(k * n, dtype)

    r = run(load_file(src), "to_fp8", Launch(grid=((n + 63) // 64, 1, 1), block=(64, 1, 1),
                                             args={"x": x, "q4": zeros(np.uint8), "q5": zeros(np.uint8),
                                                   "back4": zeros(np.float32), "back5": zeros(np.float32),
                                                   "nosat": zeros(np.uint8, 2), "n": n}))
    assert r.outcome.completed and not r.memory_errors
    b = r.buffers
    assert np.array_equal(b["q4"], _fp8_reference(x, True, True))
    assert np.array_equal(b["q5"], _fp8_reference(x, False, True))
    assert np.array_equal(b["nosat"][0::2], _fp8_reference(x, True, False))
    assert np.array_equal(b["nosat"][1::2], _fp8_reference(x, False, False))
    assert np.array_equal(b["back4"], _fp8_table(True)[b["q4"]].astype(np.float32), equal_nan=True)
    assert np.array_equal(b["back5"], _fp8_table(False)[b["q5"]].astype(np.float32), equal_nan=True)


# ---------------------------------------------------------------------------------------------
# NVTX, glibc's short unsigned names, MPI
# ---------------------------------------------------------------------------------------------

NVTX = r"""#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#include <nvtx3/nvToolsExtCuda.h>
#include <nvToolsExtCudaRt.h>

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  nvtxNameCudaStreamA(s, "compute");
  nvtxNameCudaDeviceA(0, "gpu0");
  nvtxDomainHandle_t d = nvtxDomainCreateA("app");
  nvtxEventAttributes_t attr = {};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = "step";
  nvtxDomainRangePushEx(d, &attr);
  nvtxRangePushA("scale");
  nvtxMarkA("launch");
  scale<<<4, 256, 0, s>>>(nullptr, 1024);
  nvtxRangePop();
  nvtxRangeId_t id = nvtxRangeStartA("sync");
  cudaStreamSynchronize(s);
  nvtxRangeEnd(id);
  nvtxDomainRangePop(d);
  return 0;
}
"""


def test_nvtx3_headers_are_no_op_declarations(tmp_path):
    assert _compiles_whole(_write(tmp_path, "nvtx.cu", NVTX)) == ["scale"]


SHORT_NAMES = r"""// no #include: nvcc's host headers reach glibc's <sys/types.h>
__global__ void pack(uint *out, const ushort *lo, const ulong *hi, uint n) {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (uint)lo[i] + (uint)(hi[i] >> 16);
}
"""


@pytest.mark.parametrize("after", ["", "#include <sys/types.h>\n", "#define uint unsigned int\n",
                                   "typedef unsigned long ulong;\n"],
                         ids=["bare", "with-sys-types", "a-macro-of-the-same-name", "a-typedef-again"])
def test_glibc_short_unsigned_names_need_no_include(tmp_path, after):
    src = _write(tmp_path, "short.cu", after + SHORT_NAMES)
    assert _compiles_whole(src) == ["pack"]
    (kernel,) = load_file(src).kernels
    types = [p.c_type for p in kernel.params]
    if after.startswith("#define"):  # the macro's spelling
        types[0], types[3] = "uint*", "uint"
    assert types == ["uint*", "const ushort*", "const ulong*", "uint"]
    assert _kernels(_check(src))["pack"]["status"] == "analysed"


MPI = r"""#include INCLUDE
#include <stdio.h>

#define MPI_CHECK(call) \
  if ((call) != MPI_SUCCESS) { fprintf(stderr, "MPI error\n"); MPI_Abort(MPI_COMM_WORLD, 1); }

struct Domain {
  MPI_Comm comm;  // host state next to the device data: the struct keeps its layout
  float *data;
  __device__ float at(int i) const { return data[i]; }
};

__global__ void halo(Domain dom, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = dom.at(i) + 1.0f;
}

static void exchange(Domain &d, float *buf, int n) {
  int rank, size;
  MPI_Status status;
  MPI_CHECK(MPI_Comm_rank(d.comm, &rank));
  MPI_Comm_size(d.comm, &size);
  MPI_Sendrecv_replace(buf, n, MPI_FLOAT, (rank + 1) % size, 0, (rank + size - 1) % size, 0, d.comm, &status);
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, d.comm);
  MPI_Request req;
  MPI_Isend(buf, n, MPI_FLOAT, 0, 7, d.comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double t0 = MPI_Wtime();
  Domain d;
  d.comm = MPI_COMM_WORLD;
  cudaMalloc(&d.data, 1024 * sizeof(float));
  float *out;
  cudaMalloc(&out, 1024 * sizeof(float));
  halo<<<4, 256>>>(d, out, 1024);
  exchange(d, out, 1024);
  printf("%f\n", MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
"""


@pytest.mark.parametrize("include", ["<mpi.h>", '"mpi.h"'])
def test_an_mpi_program_whose_kernels_do_not_use_mpi(tmp_path, include):
    src = _write(tmp_path, "mpi_app.cu", MPI.replace("INCLUDE", include))
    assert _compiles_whole(src) == ["halo"]
    kernel = _kernels(_check(src, "--budget", "2"))["halo"]
    assert kernel["status"] == "analysed"
