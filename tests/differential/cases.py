"""Differential fidelity cases: OpenCL kernels, launches and numpy references.

Every :class:`Case` names one kernel of a file in ``kernels/``, several launches (inputs
drawn from a seeded ``numpy.random.default_rng``) and a numpy ``reference(inputs, launch)``
that returns the expected final contents of the buffers it knows about.

Two comparisons use a case:

* simu against a real OpenCL implementation (PoCL): every buffer, ``compare`` says how —
  ``"exact"`` (bit for bit; NaNs only need to be NaN) or ``"ulp"`` (floats within
  ``maxulp`` units in the last place, for kernels that call transcendental functions);
* the OpenCL implementation against the numpy reference, which checks the kernels and
  launches themselves: ``ref_compare`` is ``"exact"``, ``"ulp"`` or ``"close"``.

Most references replay the kernel's exact float32 operation order, so they are exact.
Float inputs are drawn from ranges that keep results well-conditioned (no overflow, no
subnormals, no catastrophic cancellation), so the only source of rounding differences
between two correct implementations is the accuracy of transcendental functions.

Every launch has at most 4096 work-items and every kernel is race-free and
deterministic (atomics are used only for order-independent integer updates).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from simu.launch.model import Launch, LocalBuffer
from simu.validate.differential import BUILD_OPTIONS, FP_PRAGMA, byte_copy, copy_launch  # noqa: F401 - re-exported

KERNEL_DIR = Path(__file__).resolve().parent / "kernels"
MAX_WORK_ITEMS = 4096

Reference = Callable[[dict[str, Any], Launch], dict[str, np.ndarray]]

f32 = np.float32
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


@dataclass
class Case:
    """One kernel with its launches and its numpy reference."""

    family: str
    file: str                    # file name inside kernels/
    kernel: str
    launches: list[Launch]
    reference: Reference
    compare: str = "exact"       # simu vs OpenCL: "exact" | "ulp"
    maxulp: int = 2
    ref_compare: str | None = None   # OpenCL vs reference; None = same as compare
    ref_maxulp: int = 2
    ref_rtol: float = 1e-5
    ref_atol: float = 0.0
    notes: str = ""

    @property
    def id(self) -> str:
        return f"{Path(self.file).stem}:{self.kernel}"

    @property
    def path(self) -> Path:
        return KERNEL_DIR / self.file

    @property
    def source(self) -> str:
        """The kernel file with the FP_CONTRACT OFF pragma on an extra first line."""
        return kernel_source(self.file)

    @property
    def reference_mode(self) -> str:
        return self.ref_compare or self.compare


@lru_cache(maxsize=None)
def kernel_source(file: str) -> str:
    return FP_PRAGMA + (KERNEL_DIR / file).read_text()


# --------------------------------------------------------------------------------------
# Comparisons


def _float_view(dtype: np.dtype):
    return {2: np.uint16, 4: np.uint32, 8: np.uint64}[dtype.itemsize]


def assert_same(expected: np.ndarray, actual: np.ndarray, mode: str = "exact", *, maxulp: int = 2,
                rtol: float = 1e-5, atol: float = 0.0, name: str = "buffer") -> None:
    """Assert two buffers agree: ``exact`` (bitwise, any NaN equals any NaN), ``ulp`` or
    ``close``.  Structured (struct) buffers are compared field by field, so padding bytes
    never matter; integer data is always compared exactly."""
    expected = np.asarray(expected)
    actual = np.asarray(actual)
    assert actual.shape == expected.shape, f"{name}: shape {actual.shape} != expected {expected.shape}"
    assert actual.dtype == expected.dtype, f"{name}: dtype {actual.dtype} != expected {expected.dtype}"
    dtype = expected.dtype
    if dtype.names:
        for fname in dtype.names:
            assert_same(expected[fname], actual[fname], mode, maxulp=maxulp, rtol=rtol, atol=atol,
                        name=f"{name}.{fname}")
        return
    if dtype.kind != "f":
        np.testing.assert_array_equal(actual, expected, err_msg=f"{name}: integer data differs")
        return
    nan_e, nan_a = np.isnan(expected), np.isnan(actual)
    np.testing.assert_array_equal(nan_a, nan_e, err_msg=f"{name}: NaN positions differ")
    e, a = expected[~nan_e], actual[~nan_a]
    if mode == "exact":
        view = _float_view(dtype)
        bad = np.flatnonzero(e.view(view) != a.view(view))
        if bad.size:
            idx = np.argwhere(~nan_e)[bad[:5]]
            details = ", ".join(f"{tuple(int(v) for v in i)}: expected {e[b]!r} got {a[b]!r}"
                                for i, b in zip(idx, bad[:5], strict=False))
            raise AssertionError(f"{name}: {bad.size} of {e.size} values differ bitwise ({details})")
    elif mode == "ulp":
        np.testing.assert_array_max_ulp(a, e, maxulp=maxulp, dtype=dtype)
    elif mode == "close":
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, err_msg=f"{name}: values differ")
    else:
        raise ValueError(f"unknown comparison mode {mode!r}")


# --------------------------------------------------------------------------------------
# Helpers for building inputs and references


def cdiv(n: int, d: int) -> int:
    return -(-n // d)


def rng_for(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def uniform(rng: np.random.Generator, lo: float, hi: float, size) -> np.ndarray:
    return rng.uniform(lo, hi, size).astype(np.float32)


def ints(rng: np.random.Generator, lo: int, hi: int, size, dtype=np.int32) -> np.ndarray:
    """Integers in [lo, hi)."""
    return rng.integers(lo, hi, size, dtype=np.int64 if hi <= 2**63 else np.uint64).astype(dtype)


def c_div(a, b):
    """C division (truncates toward zero) on int64 arrays."""
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def c_rem(a, b):
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    return a - c_div(a, b) * b


def wrap(values, dtype) -> np.ndarray:
    """Integers reduced modulo 2^bits of dtype (two's complement), as numpy casts do."""
    v = np.asarray(values)
    if v.dtype != np.uint64:
        v = v.astype(np.int64)
    return v.astype(dtype)


def next_pow2(n: int) -> int:
    p = 1
    while p < n:
        p <<= 1
    return p


def tree_sequential(a: np.ndarray) -> np.ndarray:
    """Replay ``for s = p/2..1: if lid < s && lid + s < L: a[lid] += a[lid + s]`` on rows."""
    a = a.copy()
    L = a.shape[1]
    s = next_pow2(L) >> 1
    while s > 0:
        idx = np.arange(s)
        idx = idx[idx + s < L]
        a[:, idx] = a[:, idx] + a[:, idx + s]
        s >>= 1
    return a[:, 0]


def tree_interleaved(a: np.ndarray) -> np.ndarray:
    """Replay ``for s = 1, 2, 4..: if lid % 2s == 0 && lid + s < L: a[lid] += a[lid + s]``."""
    a = a.copy()
    L = a.shape[1]
    s = 1
    while s < L:
        idx = np.arange(0, L, 2 * s)
        idx = idx[idx + s < L]
        a[:, idx] = a[:, idx] + a[:, idx + s]
        s *= 2
    return a[:, 0]


def padded_groups(x: np.ndarray, groups: int, size: int, fill=0) -> np.ndarray:
    """x padded (or cut) to groups * size elements, shaped (groups, size)."""
    out = np.full(groups * size, fill, dtype=x.dtype)
    m = min(x.size, out.size)
    out[:m] = x[:m]
    return out.reshape(groups, size)


def blelloch_exclusive(t: np.ndarray) -> np.ndarray:
    """Replay the Blelloch up-sweep / down-sweep on each row of t (row length m, 2^k)."""
    t = t.copy()
    m = t.shape[1]
    offset = 1
    d = m >> 1
    while d > 0:
        lid = np.arange(d)
        ai = offset * (2 * lid + 1) - 1
        bi = offset * (2 * lid + 2) - 1
        t[:, bi] = t[:, bi] + t[:, ai]
        offset *= 2
        d >>= 1
    t[:, m - 1] = 0
    d = 1
    while d < m:
        offset >>= 1
        lid = np.arange(d)
        ai = offset * (2 * lid + 1) - 1
        bi = offset * (2 * lid + 2) - 1
        tmp = t[:, ai].copy()
        t[:, ai] = t[:, bi]
        t[:, bi] = t[:, bi] + tmp
        d *= 2
    return t


def matmul_f32_sequential(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """C[i, j] = sum over k in increasing order of fl(A[i, k] * B[k, j]), all in float32."""
    acc = np.zeros((A.shape[0], B.shape[1]), np.float32)
    for k in range(A.shape[1]):
        acc = acc + A[:, k:k + 1] * B[k:k + 1, :]
    return acc


def round_int_to_f32(v: int, mode: str = "rte") -> np.float32:
    """Round a Python integer to float32 with an OpenCL rounding mode."""
    if v == 0:
        return f32(0.0)
    sign = -1 if v < 0 else 1
    a = abs(v)
    shift = a.bit_length() - 24
    if shift > 0:
        q, rem = a >> shift, a & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if mode == "rte":
            if rem > half or (rem == half and q & 1):
                q += 1
        elif mode == "rtp":
            if rem and sign > 0:
                q += 1
        elif mode == "rtn":
            if rem and sign < 0:
                q += 1
        a = q << shift
    return f32(float(sign * a))


def f32_round_toward_zero(x64: np.ndarray) -> np.ndarray:
    r = x64.astype(np.float32)
    too_big = np.abs(r.astype(np.float64)) > np.abs(x64)
    return np.where(too_big, np.nextafter(r, f32(0)), r).astype(np.float32)


def fma_f32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded float32 fma(a, b, c).

    The product is exact in float64; TwoSum gives s + e == a * b + c exactly.  Rounding s
    to float32 is right unless s lies exactly halfway between two floats while e != 0:
    then the exact value is on e's side of the midpoint.
    """
    a64, b64, c64 = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    p = a64 * b64
    s = p + c64
    bb = s - p
    e = (p - (s - bb)) + (c64 - bb)
    r = s.astype(np.float32)
    r64 = r.astype(np.float64)
    other = np.nextafter(r, np.where(s > r64, np.inf, -np.inf).astype(np.float32))
    tie = (r64 != s) & ((r64 + other.astype(np.float64)) / 2 == s) & (e != 0)
    hi, lo = np.maximum(r, other), np.minimum(r, other)
    return np.where(tie, np.where(e > 0, hi, lo), r).astype(np.float32)


def f64_to_f32(x) -> np.ndarray:
    return np.asarray(x, np.float64).astype(np.float32)


# --------------------------------------------------------------------------------------
# Case registry

CASES: list[Case] = []


def case(family: str, file: str, kernel: str, launches: list[Launch], reference: Reference, **kw) -> Case:
    c = Case(family, file, kernel, launches, reference, **kw)
    CASES.append(c)
    return c


def L1(n_groups: int, block: int, **args) -> Launch:
    return Launch(grid=(n_groups,), block=(block,), args=args)


# ======================================================================================
# Tree reductions (reduce.cl)


def _reduce_f32_launch(seed: int, n: int, block: int, groups: int | None = None, scratch=True) -> Launch:
    rng = rng_for(seed)
    groups = groups or cdiv(n, block)
    args = dict(**{"in": uniform(rng, -1.0, 1.0, n)}, out=np.zeros(groups, np.float32))
    if scratch:
        args["scratch"] = LocalBuffer(4 * block)
    args["n"] = np.int32(n)
    return L1(groups, block, **args)


def _ref_reduce_interleaved(a, launch):
    G, L = launch.grid[0], launch.block[0]
    return {"out": tree_interleaved(padded_groups(a["in"], G, L))}


case("reduction", "reduce.cl", "reduce_interleaved_f32",
     [_reduce_f32_launch(1, 1000, 64), _reduce_f32_launch(2, 777, 96), _reduce_f32_launch(3, 50, 32, groups=3),
      _reduce_f32_launch(4, 2000, 256)],
     _ref_reduce_interleaved)


def _ref_reduce_sequential(a, launch):
    G, L = launch.grid[0], launch.block[0]
    gsize = G * L
    x = a["in"]
    rounds = cdiv(x.size, gsize)
    padded = np.zeros(rounds * gsize, np.float32)
    padded[:x.size] = x
    acc = np.zeros(gsize, np.float32)
    for r in range(rounds):
        acc = acc + padded[r * gsize:(r + 1) * gsize]
    return {"out": tree_sequential(acc.reshape(G, L))}


case("reduction", "reduce.cl", "reduce_sequential_f32",
     [_reduce_f32_launch(11, 3000, 100, groups=4), _reduce_f32_launch(12, 4093, 64, groups=8),
      _reduce_f32_launch(13, 200, 48, groups=5)],
     _ref_reduce_sequential)


def _reduce_unrolled_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, 2 * block)
    return L1(groups, block, **{"in": ints(rng, -1000, 1000, n)}, out=np.zeros(groups, np.int32), n=n)


def _ref_reduce_unrolled(a, launch):
    G, L = launch.grid[0], launch.block[0]
    return {"out": padded_groups(a["in"], G, 2 * L).sum(axis=1, dtype=np.int64).astype(np.int32)}


case("reduction", "reduce.cl", "reduce_unrolled_i32",
     [_reduce_unrolled_launch(21, 5000, 256), _reduce_unrolled_launch(22, 1001, 64),
      _reduce_unrolled_launch(23, 3333, 128)],
     _ref_reduce_unrolled)


def _minmax_launch(seed: int, n: int, block: int, groups: int | None = None) -> Launch:
    rng = rng_for(seed)
    groups = groups or cdiv(n, block)
    return L1(groups, block, **{"in": uniform(rng, -100.0, 100.0, n)},
              out_min=np.zeros(groups, np.float32), out_max=np.zeros(groups, np.float32),
              smin=LocalBuffer(4 * block), smax=LocalBuffer(4 * block), n=n)


def _ref_minmax(a, launch):
    G, L = launch.grid[0], launch.block[0]
    return {"out_min": padded_groups(a["in"], G, L, np.inf).min(axis=1),
            "out_max": padded_groups(a["in"], G, L, -np.inf).max(axis=1)}


case("reduction", "reduce.cl", "reduce_minmax_f32",
     [_minmax_launch(31, 1000, 128), _minmax_launch(32, 300, 70, groups=6), _minmax_launch(33, 64, 16)],
     _ref_minmax)


def _atomic_reduce_launch(seed: int, n: int, block: int, groups: int) -> Launch:
    rng = rng_for(seed)
    return L1(groups, block, **{"in": ints(rng, -10**9, 10**9, n)},
              result=np.array([INT_MIN, INT_MAX, 0], np.int32), n=n)


def _ref_atomic_reduce(a, launch):
    x = a["in"]
    return {"result": np.array([x.max(), x.min(), (x < 0).sum()], np.int32)}


case("reduction", "reduce.cl", "reduce_atomic_i32",
     [_atomic_reduce_launch(41, 5000, 64, 7), _atomic_reduce_launch(42, 999, 100, 3),
      _atomic_reduce_launch(43, 10, 32, 2)],
     _ref_atomic_reduce)


def _sum_u64_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, block)
    return L1(groups, block, **{"in": rng.integers(0, 2**64, n, dtype=np.uint64)},
              out=np.zeros(groups, np.uint64), scratch=LocalBuffer(8 * block), n=n)


def _ref_sum_u64(a, launch):
    G, L = launch.grid[0], launch.block[0]
    return {"out": padded_groups(a["in"], G, L).sum(axis=1, dtype=np.uint64)}


case("reduction", "reduce.cl", "reduce_sum_u64",
     [_sum_u64_launch(51, 1000, 128), _sum_u64_launch(52, 333, 32)],
     _ref_sum_u64)

# ======================================================================================
# Scans (scan.cl)


def _hs_f32_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, block)
    return L1(groups, block, **{"in": uniform(rng, -1.0, 1.0, n)}, out=np.zeros(n, np.float32),
              buf=LocalBuffer(2 * 4 * block), n=n)


def _ref_hs_f32(a, launch):
    G, L = launch.grid[0], launch.block[0]
    t = padded_groups(a["in"], G, L)
    off = 1
    while off < L:
        new = t.copy()
        new[:, off:] = t[:, off:] + t[:, :-off]
        t = new
        off *= 2
    return {"out": t.reshape(-1)[:a["n"]]}


case("scan", "scan.cl", "scan_hillis_steele_f32",
     [_hs_f32_launch(61, 1000, 128), _hs_f32_launch(62, 500, 100), _hs_f32_launch(63, 37, 16)],
     _ref_hs_f32)


def _hs_i32_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, **{"in": ints(rng, -10000, 10000, n)}, out=np.zeros(n, np.int32), n=n)


def _ref_hs_i32(a, launch):
    G, L = launch.grid[0], launch.block[0]
    return {"out": np.cumsum(padded_groups(a["in"], G, L), axis=1).reshape(-1)[:a["n"]].astype(np.int32)}


case("scan", "scan.cl", "scan_hillis_steele_inplace_i32",
     [_hs_i32_launch(71, 1000, 256), _hs_i32_launch(72, 250, 60), _hs_i32_launch(73, 3000, 200)],
     _ref_hs_i32)


def _blelloch_i32_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, 2 * block)
    return L1(groups, block, **{"in": ints(rng, -1000, 1000, n)}, out=np.zeros(n, np.int32),
              block_sums=np.zeros(groups, np.int32), temp=LocalBuffer(4 * 2 * block), n=n)


def _ref_blelloch_i32(a, launch):
    G, L = launch.grid[0], launch.block[0]
    t = padded_groups(a["in"], G, 2 * L)
    return {"out": blelloch_exclusive(t).reshape(-1)[:a["n"]], "block_sums": t.sum(axis=1).astype(np.int32)}


case("scan", "scan.cl", "scan_blelloch_i32",
     [_blelloch_i32_launch(81, 1000, 64), _blelloch_i32_launch(82, 4000, 256), _blelloch_i32_launch(83, 100, 8)],
     _ref_blelloch_i32)


def _blelloch_f32_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, 2 * block), block, **{"in": uniform(rng, 0.0, 1.0, n)}, out=np.zeros(n, np.float32), n=n)


def _ref_blelloch_f32(a, launch):
    G, L = launch.grid[0], launch.block[0]
    return {"out": blelloch_exclusive(padded_groups(a["in"], G, 2 * L)).reshape(-1)[:a["n"]]}


case("scan", "scan.cl", "scan_blelloch_f32",
     [_blelloch_f32_launch(91, 1500, 128), _blelloch_f32_launch(92, 300, 32), _blelloch_f32_launch(93, 4096, 256)],
     _ref_blelloch_f32)


def _chunked_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, 4 * block)
    return L1(groups, block, **{"in": rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)},
              out=np.zeros(n, np.uint32), totals=LocalBuffer(4 * block), n=n)


def _ref_chunked(a, launch):
    G, L = launch.grid[0], launch.block[0]
    t = padded_groups(a["in"], G, 4 * L)
    return {"out": np.cumsum(t, axis=1, dtype=np.uint32).reshape(-1)[:a["n"]]}


case("scan", "scan.cl", "scan_chunked_u32",
     [_chunked_launch(101, 1000, 64), _chunked_launch(102, 4001, 250), _chunked_launch(103, 10, 4)],
     _ref_chunked)


def _add_offsets_launch(seed: int, n: int, per_group: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, per_group)
    return L1(groups, block, data=ints(rng, -10**6, 10**6, n), offsets=ints(rng, -10**6, 10**6, groups),
              per_group=per_group, n=n)


def _ref_add_offsets(a, launch):
    n, pg = a["n"], a["per_group"]
    return {"data": a["data"] + np.repeat(a["offsets"], pg)[:n]}


case("scan", "scan.cl", "scan_add_offsets_i32",
     [_add_offsets_launch(111, 1000, 100, 32), _add_offsets_launch(112, 4000, 512, 256),
      _add_offsets_launch(113, 77, 10, 16)],
     _ref_add_offsets)

# ======================================================================================
# Tiled matrix multiplication (matmul.cl)


def _matmul_launch(seed: int, M: int, N: int, K: int, block: tuple[int, int], tile: tuple[int, int] | None = None,
                   dyn: bool = False, dtype=np.float32) -> Launch:
    rng = rng_for(seed)
    tile = tile or block
    if dtype == np.uint32:
        A = rng.integers(0, 2**32, (M, K), dtype=np.uint64).astype(np.uint32)
        B = rng.integers(0, 2**32, (K, N), dtype=np.uint64).astype(np.uint32)
    else:
        A = uniform(rng, -1.0, 1.0, (M, K))
        B = uniform(rng, -1.0, 1.0, (K, N))
    args: dict[str, Any] = dict(A=A, B=B, C=np.zeros((M, N), dtype))
    if dyn:
        args["As"] = LocalBuffer(4 * block[0] * block[1])
        args["Bs"] = LocalBuffer(4 * block[0] * block[1])
    args.update(M=M, N=N, K=K)
    return Launch(grid=(cdiv(N, tile[0]), cdiv(M, tile[1])), block=block, args=args)


def _ref_matmul_f32(a, launch):
    return {"C": matmul_f32_sequential(a["A"], a["B"])}


def _ref_matmul_u32(a, launch):
    return {"C": (a["A"].astype(np.uint64) @ a["B"].astype(np.uint64)).astype(np.uint32)}


case("matmul", "matmul.cl", "matmul_naive_f32",
     [_matmul_launch(121, 37, 29, 23, (8, 8)), _matmul_launch(122, 20, 50, 64, (16, 4)),
      _matmul_launch(123, 5, 7, 3, (4, 4))],
     _ref_matmul_f32)
case("matmul", "matmul.cl", "matmul_tiled8_f32",
     [_matmul_launch(131, 37, 29, 23, (8, 8)), _matmul_launch(132, 64, 48, 40, (8, 8)),
      _matmul_launch(133, 9, 17, 1, (8, 8))],
     _ref_matmul_f32)
case("matmul", "matmul.cl", "matmul_tiled16_f32",
     [_matmul_launch(141, 40, 33, 50, (16, 16)), _matmul_launch(142, 16, 64, 16, (16, 16)),
      _matmul_launch(143, 20, 10, 17, (16, 16))],
     _ref_matmul_f32)
case("matmul", "matmul.cl", "matmul_tiled_dyn_f32",
     [_matmul_launch(151, 30, 26, 19, (12, 12), dyn=True), _matmul_launch(152, 21, 35, 40, (4, 4), dyn=True),
      _matmul_launch(153, 33, 33, 33, (5, 5), dyn=True)],
     _ref_matmul_f32)
case("matmul", "matmul.cl", "matmul_rect_f32",
     [_matmul_launch(161, 40, 45, 37, (16, 4), tile=(16, 16)), _matmul_launch(162, 16, 16, 16, (16, 4), tile=(16, 16)),
      _matmul_launch(163, 70, 20, 9, (16, 4), tile=(16, 16))],
     _ref_matmul_f32)
case("matmul", "matmul.cl", "matmul_tiled_u32",
     [_matmul_launch(171, 30, 20, 25, (8, 8), dtype=np.uint32),
      _matmul_launch(172, 8, 64, 13, (8, 8), dtype=np.uint32)],
     _ref_matmul_u32)

# ======================================================================================
# Transpose through local tiles (transpose.cl)


def _transpose_launch(seed: int, W: int, H: int, block: tuple[int, int], tile: tuple[int, int] | None = None) -> Launch:
    rng = rng_for(seed)
    tile = tile or block
    return Launch(grid=(cdiv(W, tile[0]), cdiv(H, tile[1])), block=block,
                  args={"in": uniform(rng, -1000.0, 1000.0, (H, W)), "out": np.zeros((W, H), np.float32),
                        "width": W, "height": H})


def _ref_transpose(a, launch):
    return {"out": np.ascontiguousarray(a["in"].T)}


case("transpose", "transpose.cl", "transpose_naive_f32",
     [_transpose_launch(181, 50, 30, (16, 8)), _transpose_launch(182, 7, 100, (4, 16)),
      _transpose_launch(183, 64, 64, (8, 8))],
     _ref_transpose)
case("transpose", "transpose.cl", "transpose_tiled_f32",
     [_transpose_launch(191, 50, 30, (16, 16)), _transpose_launch(192, 64, 32, (16, 16)),
      _transpose_launch(193, 17, 5, (16, 16))],
     _ref_transpose)
case("transpose", "transpose.cl", "transpose_tiled_padded_f32",
     [_transpose_launch(201, 45, 61, (16, 16)), _transpose_launch(202, 32, 48, (16, 16))],
     _ref_transpose)
case("transpose", "transpose.cl", "transpose_rect_f32",
     [_transpose_launch(211, 70, 50, (32, 8), tile=(32, 32)), _transpose_launch(212, 64, 64, (32, 8), tile=(32, 32)),
      _transpose_launch(213, 31, 97, (32, 8), tile=(32, 32))],
     _ref_transpose)


def _transpose_batched_launch(seed: int, W: int, H: int, batch: int, T: int) -> Launch:
    rng = rng_for(seed)
    return Launch(grid=(cdiv(W, T), cdiv(H, T), batch), block=(T, T, 1),
                  args={"in": ints(rng, -2**31, 2**31, (batch, H, W)), "out": np.zeros((batch, W, H), np.int32),
                        "tile": LocalBuffer(4 * T * (T + 1)), "width": W, "height": H})


case("transpose", "transpose.cl", "transpose_batched_i32",
     [_transpose_batched_launch(221, 20, 13, 4, 8), _transpose_batched_launch(222, 16, 16, 3, 16),
      _transpose_batched_launch(223, 9, 30, 5, 6)],
     lambda a, launch: {"out": np.ascontiguousarray(a["in"].transpose(0, 2, 1))})

# ======================================================================================
# Histograms with atomics (histogram.cl)


def _hist_global_launch(seed: int, n: int, nbins: int, block: int, groups: int) -> Launch:
    rng = rng_for(seed)
    return L1(groups, block, data=rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32),
              hist=np.zeros(nbins, np.uint32), n=n, nbins=np.uint32(nbins))


def _ref_hist_global(a, launch):
    nb = int(a["nbins"])
    return {"hist": np.bincount(a["data"] % np.uint32(nb), minlength=nb).astype(np.uint32)}


case("histogram", "histogram.cl", "hist_global_u32",
     [_hist_global_launch(231, 5000, 37, 64, 10), _hist_global_launch(232, 1000, 256, 100, 3),
      _hist_global_launch(233, 50, 7, 32, 4)],
     _ref_hist_global)


def _hist_local_launch(seed: int, n: int, block: int, groups: int, skew: bool = False) -> Launch:
    rng = rng_for(seed)
    data = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    if skew:   # many collisions on few bins
        data = (rng.integers(0, 4, n) * 64 + 3).astype(np.uint32)
    return L1(groups, block, data=data, hist=np.zeros(64, np.uint32), n=n)


case("histogram", "histogram.cl", "hist_local_u32",
     [_hist_local_launch(241, 5000, 128, 8), _hist_local_launch(242, 777, 48, 5),
      _hist_local_launch(243, 3000, 256, 4, skew=True)],
     lambda a, launch: {"hist": np.bincount(a["data"] & np.uint32(63), minlength=64).astype(np.uint32)})


def _hist_dyn_launch(seed: int, n: int, nbins: int, block: int, groups: int) -> Launch:
    rng = rng_for(seed)
    return L1(groups, block, data=ints(rng, -10**6, 10**6, n), hist=np.zeros(nbins, np.uint32),
              lh=LocalBuffer(4 * nbins), n=n, nbins=nbins)


case("histogram", "histogram.cl", "hist_local_dyn_u32",
     [_hist_dyn_launch(251, 4000, 10, 64, 6), _hist_dyn_launch(252, 1234, 37, 96, 4),
      _hist_dyn_launch(253, 3000, 300, 128, 3)],
     lambda a, launch: {"hist": np.bincount(np.mod(a["data"], a["nbins"]), minlength=a["nbins"]).astype(np.uint32)})


def _hist_float_launch(seed: int, n: int, nbins: int, block: int, lo: float = -2.0, hi: float = 3.0) -> Launch:
    rng = rng_for(seed)
    x = uniform(rng, lo - 0.5, hi + 0.5, n)
    x[:8] = np.array([lo, hi, lo - 1e-3, hi - 1e-6, 0.0, -0.0, (lo + hi) / 2, lo + (hi - lo) / nbins], np.float32)
    return L1(cdiv(n, block) + 1, block, x=x, hist=np.zeros(nbins, np.int32), n=n, lo=f32(lo),
              scale=f32(nbins / (hi - lo)), nbins=nbins)


def _ref_hist_float(a, launch):
    t = (a["x"] - a["lo"]) * a["scale"]
    b = np.clip(np.trunc(t).astype(np.int64), 0, a["nbins"] - 1)
    return {"hist": np.bincount(b, minlength=a["nbins"]).astype(np.int32)}


case("histogram", "histogram.cl", "hist_float_bins",
     [_hist_float_launch(261, 3000, 20, 128), _hist_float_launch(262, 1000, 7, 50, lo=0.0, hi=1.0)],
     _ref_hist_float)


def _hist_rgba_launch(seed: int, n: int, block: int, groups: int) -> Launch:
    rng = rng_for(seed)
    px = rng.integers(0, 256, (n, 4)).astype(np.uint8)
    px[:, 3] = rng.integers(250, 256, n)   # mostly opaque: heavy collisions on few alpha bins
    return L1(groups, block, pixels=px, hist=np.zeros(4 * 256, np.uint32), n=n)


def _ref_hist_rgba(a, launch):
    px = a["pixels"]
    return {"hist": np.concatenate([np.bincount(px[:, c], minlength=256) for c in range(4)]).astype(np.uint32)}


case("histogram", "histogram.cl", "hist_rgba",
     [_hist_rgba_launch(271, 4000, 256, 4), _hist_rgba_launch(272, 999, 64, 3)],
     _ref_hist_rgba)

# ======================================================================================
# Stencils (stencil.cl)


def _stencil1d_launch(seed: int, n: int, block: int, kernel: str) -> Launch:
    rng = rng_for(seed)
    args: dict[str, Any] = {"in": uniform(rng, -10.0, 10.0, n), "out": np.zeros(n, np.float32)}
    if kernel == "3pt":
        args["tile"] = LocalBuffer(4 * (block + 2))
    args["n"] = n
    return L1(cdiv(n, block), block, **args)


def _ref_stencil1d_3pt(a, launch):
    x = a["in"]
    n = x.size
    i = np.arange(n)
    p, c, q = x[np.clip(i - 1, 0, n - 1)], x, x[np.clip(i + 1, 0, n - 1)]
    return {"out": f32(0.25) * p + f32(0.5) * c + f32(0.25) * q}


case("stencil", "stencil.cl", "stencil1d_3pt",
     [_stencil1d_launch(281, 1000, 64, "3pt"), _stencil1d_launch(282, 333, 100, "3pt"),
      _stencil1d_launch(283, 5, 8, "3pt")],
     _ref_stencil1d_3pt)

W7 = np.array([0.0625, -0.125, 0.25, 0.5, 0.25, -0.125, 0.0625], np.float32)


def _ref_stencil1d_r3(a, launch):
    x = a["in"]
    n = x.size
    i = np.arange(n)
    acc = np.zeros(n, np.float32)
    for j in range(7):
        acc = acc + W7[j] * x[np.clip(i - 3 + j, 0, n - 1)]
    return {"out": acc}


case("stencil", "stencil.cl", "stencil1d_r3",
     [_stencil1d_launch(291, 1000, 128, "r3"), _stencil1d_launch(292, 250, 48, "r3"),
      _stencil1d_launch(293, 4000, 256, "r3")],
     _ref_stencil1d_r3)


def _stencil2d_launch(seed: int, w: int, h: int, block: tuple[int, int], tile: bool) -> Launch:
    rng = rng_for(seed)
    args: dict[str, Any] = {"in": uniform(rng, -10.0, 10.0, (h, w)), "out": np.zeros((h, w), np.float32)}
    if tile:
        args["tile"] = LocalBuffer(4 * (block[0] + 2) * (block[1] + 2))
    args.update(w=w, h=h)
    return Launch(grid=(cdiv(w, block[0]), cdiv(h, block[1])), block=block, args=args)


def _clamped(img: np.ndarray, dy: int, dx: int) -> np.ndarray:
    h, w = img.shape
    ys = np.clip(np.arange(h) + dy, 0, h - 1)
    xs = np.clip(np.arange(w) + dx, 0, w - 1)
    return img[np.ix_(ys, xs)]


def _ref_stencil2d_5pt(a, launch):
    x = a["in"]
    s4 = _clamped(x, 0, -1) + _clamped(x, 0, 1) + _clamped(x, -1, 0) + _clamped(x, 1, 0)
    return {"out": f32(0.5) * x + f32(0.125) * s4}


case("stencil", "stencil.cl", "stencil2d_5pt",
     [_stencil2d_launch(301, 50, 40, (16, 8), True), _stencil2d_launch(302, 33, 17, (8, 8), True),
      _stencil2d_launch(303, 64, 64, (16, 16), True)],
     _ref_stencil2d_5pt)


def _ref_stencil2d_9pt(a, launch):
    x = a["in"]
    acc = np.zeros_like(x)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            wgt = f32(0.5) if dx == 0 and dy == 0 else (f32(0.09375) if dx == 0 or dy == 0 else f32(0.03125))
            acc = acc + wgt * _clamped(x, dy, dx)
    return {"out": acc}


case("stencil", "stencil.cl", "stencil2d_9pt",
     [_stencil2d_launch(311, 50, 40, (16, 8), False), _stencil2d_launch(312, 13, 70, (4, 16), False),
      _stencil2d_launch(313, 1, 9, (1, 8), False)],
     _ref_stencil2d_9pt)


def _life_launch(seed: int, w: int, h: int, block: tuple[int, int]) -> Launch:
    rng = rng_for(seed)
    grid = (rng.random((h, w)) < 0.35).astype(np.uint8)
    return Launch(grid=(cdiv(w, block[0]), cdiv(h, block[1])), block=block,
                  args={"in": grid, "out": np.full((h, w), 7, np.uint8), "w": w, "h": h})


def _ref_life(a, launch):
    g = a["in"].astype(np.int32)
    alive = sum(np.roll(np.roll(g, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
    return {"out": ((alive == 3) | ((g == 1) & (alive == 2))).astype(np.uint8)}


case("stencil", "stencil.cl", "stencil2d_life",
     [_life_launch(321, 40, 30, (8, 8)), _life_launch(322, 64, 50, (16, 4)), _life_launch(323, 3, 5, (2, 2))],
     _ref_life)


def _stencil3d_launch(seed: int, nx: int, ny: int, nz: int, block: tuple[int, int, int]) -> Launch:
    rng = rng_for(seed)
    return Launch(grid=(cdiv(nx, block[0]), cdiv(ny, block[1]), cdiv(nz, block[2])), block=block,
                  args={"in": uniform(rng, -10.0, 10.0, (nz, ny, nx)), "out": np.zeros((nz, ny, nx), np.float32),
                        "nx": nx, "ny": ny, "nz": nz})


def _ref_stencil3d(a, launch):
    x = a["in"]
    nz, ny, nx = x.shape

    def sh(axis, d):
        idx = np.clip(np.arange(x.shape[axis]) + d, 0, x.shape[axis] - 1)
        return np.take(x, idx, axis=axis)

    s = sh(2, -1) + sh(2, 1) + sh(1, -1) + sh(1, 1) + sh(0, -1) + sh(0, 1)
    return {"out": f32(0.25) * x + f32(0.125) * s}


case("stencil", "stencil.cl", "stencil3d_7pt",
     [_stencil3d_launch(331, 10, 7, 5, (4, 4, 4)), _stencil3d_launch(332, 16, 12, 9, (8, 4, 2)),
      _stencil3d_launch(333, 3, 20, 2, (1, 8, 2))],
     _ref_stencil3d)

# ======================================================================================
# Bitonic sort (bitonic.cl)


def _bitonic_local_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, 2 * block)
    return L1(groups, block, data=uniform(rng, -1000.0, 1000.0, n), s=LocalBuffer(4 * 2 * block), n=n)


def _ref_bitonic_local(a, launch):
    G, L = launch.grid[0], launch.block[0]
    t = np.sort(padded_groups(a["data"], G, 2 * L, np.inf), axis=1)
    return {"data": t.reshape(-1)[:a["n"]]}


case("bitonic", "bitonic.cl", "bitonic_sort_local_f32",
     [_bitonic_local_launch(341, 1000, 64), _bitonic_local_launch(342, 4096, 256), _bitonic_local_launch(343, 77, 8)],
     _ref_bitonic_local)


def _bitonic_kv_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    keys = (rng.choice(2**32 - 1, n, replace=False) + 1).astype(np.uint32)
    return L1(cdiv(n, block), block, keys=keys, values=np.arange(n, dtype=np.int32), n=n)


def _ref_bitonic_kv(a, launch):
    L = launch.block[0]
    keys, vals = a["keys"].copy(), a["values"].copy()
    for start in range(0, keys.size, L):
        order = np.argsort(-keys[start:start + L].astype(np.int64), kind="stable")
        keys[start:start + L] = keys[start:start + L][order]
        vals[start:start + L] = vals[start:start + L][order]
    return {"keys": keys, "values": vals}


case("bitonic", "bitonic.cl", "bitonic_sort_kv_desc",
     [_bitonic_kv_launch(351, 1000, 256), _bitonic_kv_launch(352, 1500, 512), _bitonic_kv_launch(353, 50, 16)],
     _ref_bitonic_kv)


def _bitonic_step_launch(seed: int, n: int, block: int, j: int, k: int) -> Launch:
    rng = rng_for(seed)
    return L1(n // block, block, data=ints(rng, -1000, 1000, n), j=j, k=k)


def _ref_bitonic_step(a, launch):
    d = a["data"].copy()
    j, k = a["j"], a["k"]
    i = np.arange(d.size)
    ixj = i ^ j
    m = ixj > i
    i, ixj = i[m], ixj[m]
    x, y = d[i], d[ixj]
    swap = (x > y) == ((i & k) == 0)
    d[i[swap]], d[ixj[swap]] = y[swap], x[swap]
    return {"data": d}


case("bitonic", "bitonic.cl", "bitonic_step_global",
     [_bitonic_step_launch(361, 1024, 64, 4, 8), _bitonic_step_launch(362, 1024, 128, 256, 512),
      _bitonic_step_launch(363, 256, 32, 1, 2), _bitonic_step_launch(364, 2048, 256, 64, 2048)],
     _ref_bitonic_step)

# ======================================================================================
# CSR sparse matrix-vector (spmv.cl)


def _csr(rng: np.random.Generator, nrows: int, ncols: int, maxlen: int, int_vals: bool = False):
    lengths = rng.integers(0, maxlen + 1, nrows)
    lengths[rng.random(nrows) < 0.1] = 0          # some empty rows
    row_ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    nnz = int(row_ptr[-1])
    col_idx = rng.integers(0, ncols, max(nnz, 1)).astype(np.int32)
    if int_vals:
        vals = rng.integers(-50, 51, max(nnz, 1)).astype(np.int32)
        vals[rng.random(vals.size) < 0.2] = 0
    else:
        vals = uniform(rng, -1.0, 1.0, max(nnz, 1))
    return row_ptr, col_idx, vals


def _spmv_launch(seed: int, nrows: int, ncols: int, maxlen: int, block: int, groups: int | None = None,
                 vector: bool = False) -> Launch:
    rng = rng_for(seed)
    row_ptr, col_idx, vals = _csr(rng, nrows, ncols, maxlen)
    args: dict[str, Any] = dict(row_ptr=row_ptr, col_idx=col_idx, vals=vals, x=uniform(rng, -1.0, 1.0, ncols),
                                y=np.full(nrows, -1.0, np.float32))
    if vector:
        args["partial"] = LocalBuffer(4 * block)
    args["nrows"] = nrows
    return L1(groups or cdiv(nrows, block), block, **args)


def _row_products(a) -> tuple[np.ndarray, np.ndarray]:
    """(nrows, maxlen) float32 products vals[p] * x[col[p]], zero-padded, and lengths."""
    rp = a["row_ptr"]
    lengths = np.diff(rp)
    width = max(int(lengths.max(initial=0)), 1)
    prod = np.zeros((lengths.size, width), np.float32)
    for r in range(lengths.size):
        s, e = rp[r], rp[r + 1]
        prod[r, :e - s] = a["vals"][s:e] * a["x"][a["col_idx"][s:e]]
    return prod, lengths


def _ref_spmv_scalar(a, launch):
    prod, _ = _row_products(a)
    acc = np.zeros(prod.shape[0], np.float32)
    for k in range(prod.shape[1]):
        acc = acc + prod[:, k]
    return {"y": acc}


def _ref_spmv_vector(a, launch):
    L = launch.block[0]
    prod, _ = _row_products(a)
    rounds = cdiv(prod.shape[1], L)
    padded = np.zeros((prod.shape[0], rounds * L), np.float32)
    padded[:, :prod.shape[1]] = prod
    acc = np.zeros((prod.shape[0], L), np.float32)
    for r in range(rounds):
        acc = acc + padded[:, r * L:(r + 1) * L]
    return {"y": tree_sequential(acc)}


case("spmv", "spmv.cl", "spmv_csr_scalar",
     [_spmv_launch(371, 300, 200, 12, 64), _spmv_launch(372, 1000, 50, 30, 128), _spmv_launch(373, 7, 5, 4, 4)],
     _ref_spmv_scalar)
case("spmv", "spmv.cl", "spmv_csr_vector",
     [_spmv_launch(381, 100, 200, 80, 32, groups=16, vector=True),
      _spmv_launch(382, 40, 500, 300, 64, groups=40, vector=True),
      _spmv_launch(383, 250, 100, 20, 16, groups=64, vector=True)],
     _ref_spmv_vector)


def _spmv_int_launch(seed: int, nrows: int, ncols: int, maxlen: int, block: int, limit: int) -> Launch:
    rng = rng_for(seed)
    row_ptr, col_idx, vals = _csr(rng, nrows, ncols, maxlen, int_vals=True)
    return L1(cdiv(nrows, block), block, row_ptr=row_ptr, col_idx=col_idx, vals=vals,
              x=rng.integers(-50, 51, ncols).astype(np.int32), y=np.zeros(nrows, np.int32),
              visited=np.zeros(nrows, np.int32), nrows=nrows, limit=limit)


def _ref_spmv_int(a, launch):
    rp, ci, vals, x = a["row_ptr"], a["col_idx"], a["vals"], a["x"]
    y = np.zeros(a["nrows"], np.int32)
    visited = np.zeros(a["nrows"], np.int32)
    lim = a["limit"]
    for r in range(a["nrows"]):
        s = seen = 0
        for p in range(rp[r], rp[r + 1]):
            seen += 1
            if vals[p] == 0:
                continue
            s += int(vals[p]) * int(x[ci[p]])
            if s > lim:
                s = lim
                break
            if s < -lim:
                s = -lim
                break
        y[r], visited[r] = s, seen
    return {"y": y, "visited": visited}


case("spmv", "spmv.cl", "spmv_csr_i32",
     [_spmv_int_launch(391, 500, 300, 40, 64, 5000), _spmv_int_launch(392, 100, 30, 100, 32, 20000)],
     _ref_spmv_int)


def _ell_launch(seed: int, nrows: int, ncols: int, width: int, block: int) -> Launch:
    rng = rng_for(seed)
    lengths = rng.integers(0, width + 1, nrows)
    cols = rng.integers(0, ncols, (width, nrows)).astype(np.int32)
    vals = uniform(rng, -1.0, 1.0, (width, nrows))
    for r in range(nrows):
        cols[lengths[r]:, r] = -1
    return L1(cdiv(nrows, block), block, cols=cols, vals=vals, x=uniform(rng, -1.0, 1.0, ncols),
              y=np.zeros(nrows, np.float32), nrows=nrows, width=width)


def _ref_ell(a, launch):
    cols, vals, x = a["cols"], a["vals"], a["x"]
    acc = np.zeros(a["nrows"], np.float32)
    active = np.ones(a["nrows"], bool)
    for k in range(a["width"]):
        active &= cols[k] >= 0
        prod = vals[k] * x[np.where(active, cols[k], 0)]
        acc = np.where(active, acc + prod, acc)
    return {"y": acc}


case("spmv", "spmv.cl", "spmv_ell",
     [_ell_launch(401, 500, 300, 16, 128), _ell_launch(402, 90, 10, 5, 32)],
     _ref_ell)

# ======================================================================================
# Vector types (vectors.cl) and structs (structs.cl)


def _vec_f4_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, a=uniform(rng, -4.0, 4.0, (n, 4)), b=uniform(rng, -4.0, 4.0, (n, 4)),
              out=np.zeros((n, 4), np.float32), lo=np.zeros((n, 2), np.float32), n=n)


def _ref_vec_f4(a, launch):
    x, y = a["a"], a["b"]
    r = x * y + x[:, ::-1] - y[:, [0, 0, 1, 1]] * f32(0.5)
    rx, rz = r[:, 2] + f32(1.0), r[:, 0] - f32(2.0)
    r[:, 0], r[:, 2] = rx, rz
    r[:, 3] = r[:, 3] / (np.abs(y[:, 3]) + f32(1.0))
    r[:, 1] = r[:, 1] - x[:, 3]
    lo = (x[:, :2] + y[:, 2:]) * np.stack([x[:, 2], y[:, 0]], axis=1) + x[:, [1, 3]]
    return {"out": r, "lo": lo}


case("vector_struct", "vectors.cl", "vec_float4_arith",
     [_vec_f4_launch(411, 1000, 64), _vec_f4_launch(412, 33, 16)],
     _ref_vec_f4)


def _vec_i2_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = ints(rng, -1000, 1000, (n, 2))
    b = ints(rng, -1000, 1000, (n, 2))
    b[::5] = a[::5]
    a[3::7, 0] = 0
    return L1(cdiv(n, block), block, a=a, b=b, out=np.zeros((n, 2), np.int32), mask=np.zeros((n, 2), np.int32),
              sel=np.zeros((n, 2), np.int32), n=n)


def _ref_vec_i2(a, launch):
    x, y = a["a"], a["b"]
    out = (((x + y) * 3) ^ (x >> 1)) ^ (((y & 0xFF) << np.array([1, 2])) - x[:, ::-1])
    lt = x < y
    extra = np.stack([((x[:, 0] != 0) & (y[:, 1] != 0)).astype(np.int32), x[:, 1] & 7], axis=1)
    sel = np.where(lt, y, x) + np.where(x == y, -1, 0) + extra
    return {"out": out.astype(np.int32), "mask": np.where(lt, -1, 0).astype(np.int32), "sel": sel.astype(np.int32)}


case("vector_struct", "vectors.cl", "vec_int2_ops",
     [_vec_i2_launch(421, 1000, 128), _vec_i2_launch(422, 45, 32)],
     _ref_vec_i2)


def _vload_launch(seed: int, n3: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n3, block), block, **{"in": uniform(rng, -8.0, 8.0, 3 * n3)},
              out3=np.zeros(3 * n3, np.float32), out4=np.zeros(4 * cdiv(n3, 2), np.float32),
              out2=np.zeros(2 * n3, np.float32), n3=n3)


def _ref_vload(a, launch):
    x, n3 = a["in"], a["n3"]
    v = x.reshape(n3, 3)
    out3 = (v[:, [2, 0, 1]] * f32(2.0) + f32(0.5)).reshape(-1)
    out4 = a["out4"].copy()
    for i in range(0, n3, 2):
        j = i // 2
        if (j + 1) * 4 <= 3 * n3:
            q = x[4 * j:4 * j + 4]
            out4[4 * j:4 * j + 4] = q[::-1] - q
    p = np.stack([x[1::3], x[2::3]], axis=1)
    out2 = (p[:, ::-1] * p).reshape(-1)
    return {"out3": out3, "out4": out4, "out2": out2}


case("vector_struct", "vectors.cl", "vec_vload_vstore",
     [_vload_launch(431, 1001, 64), _vload_launch(432, 10, 4), _vload_launch(433, 3, 8)],
     _ref_vload)


def _vconv_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    px = uniform(rng, -0.6, 1.6, (n, 4))
    px[:4] = np.array([[0.0, 1.0, 0.5, -0.0], [0.25, 0.75, 2.0, -1.0],
                       [0.1, 0.9, 1.0 / 255, 254.5 / 255], [-0.0049, 1.0049, 0.002, 0.998]], np.float32)[: min(4, n)]
    return L1(cdiv(n, block), block, px=px, rgba=np.zeros((n, 4), np.uint8), s4=np.zeros((n, 4), np.int16),
              bits=np.zeros((n, 4), np.int32), rounded=np.zeros((n, 4), np.int32), n=n)


def _ref_vconv(a, launch):
    p = a["px"]
    return {"rgba": np.clip(np.rint(p * f32(255.0)), 0, 255).astype(np.uint8),
            "s4": np.clip(np.trunc(p * f32(40000.0)), -32768, 32767).astype(np.int16),
            "bits": p.view(np.int32).copy(),
            "rounded": (np.floor(p * f32(100.0)) + np.ceil(p * f32(10.0))).astype(np.int32)}


case("vector_struct", "vectors.cl", "vec_convert",
     [_vconv_launch(441, 1000, 100), _vconv_launch(442, 4, 4)],
     _ref_vconv)


def _rgba_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, **{"in": rng.integers(0, 256, (n, 4)).astype(np.uint8)},
              gray=np.zeros(n, np.uint8), inverted=np.zeros((n, 4), np.uint8), blended=np.zeros((n, 4), np.uint8), n=n)


def _ref_rgba(a, launch):
    p = a["in"].astype(np.int64)
    q = p[::-1]
    return {"gray": ((77 * p[:, 0] + 150 * p[:, 1] + 29 * p[:, 2] + 128) >> 8).astype(np.uint8),
            "inverted": (255 - p).astype(np.uint8),
            "blended": ((p + q + 1) >> 1).astype(np.uint8)}


case("vector_struct", "vectors.cl", "vec_rgba_gray",
     [_rgba_launch(451, 2000, 128), _rgba_launch(452, 17, 8)],
     _ref_rgba)


def _wide_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, a=ints(rng, -1000, 1000, (n, 8)),
              s=rng.integers(0, 2**16, (n, 8)).astype(np.uint16),
              l=rng.integers(-2**30, 2**30, (n, 2)).astype(np.int64),
              halves=np.zeros((n, 4), np.int32), sw=np.zeros((n, 8), np.uint16), lp=np.zeros((n, 2), np.int64), n=n)


def _ref_wide(a, launch):
    v, t, m = a["a"], a["s"], a["l"]
    halves = (v[:, :4] + v[:, 4:]) * (v[:, 0::2] - v[:, 1::2]) + v[:, [7, 6, 5, 4]]
    sw = (t * np.uint16(3) + t[:, ::-1]).astype(np.uint16)
    lp = m * m[:, ::-1] + np.stack([m[:, 0] >> 3, (m[:, 1] & 0xFFFF) << 5], axis=1)
    return {"halves": halves.astype(np.int32), "sw": sw, "lp": lp.astype(np.int64)}


case("vector_struct", "vectors.cl", "vec_wide",
     [_wide_launch(461, 500, 64), _wide_launch(462, 9, 16)],
     _ref_wide)

PARTICLE = np.dtype({"names": ["pos", "vel", "id", "flags", "kind", "mass"],
                     "formats": [(np.float32, 4), (np.float32, 4), np.int32, np.int16, np.uint8, np.float32],
                     "offsets": [0, 16, 32, 36, 38, 40], "itemsize": 48})


def _particles_launch(seed: int, n: int, block: int, dt: float) -> Launch:
    rng = rng_for(seed)
    p = np.zeros(n, PARTICLE)
    p["pos"] = uniform(rng, -1.0, 5.0, (n, 4))
    p["vel"] = uniform(rng, -3.0, 3.0, (n, 4))
    p["id"] = np.arange(n) * 3
    p["flags"] = rng.integers(0, 8, n) * 2
    p["kind"] = rng.integers(250, 256, n)
    p["mass"] = uniform(rng, 0.5, 2.0, n)
    raw = p.view(np.uint8).reshape(n, 48)
    raw[:, 39] = 0xAB                                  # padding bytes carry junk
    raw[:, 44:] = 0xCD
    return L1(cdiv(n, block), block, particles=p, dt=f32(dt), n=n)


def _ref_particles(a, launch):
    p = a["particles"].copy()
    dt = f32(a["dt"])
    g = np.array([0.0, -9.75, 0.0, 0.0], np.float32)
    vel = p["vel"] + (g * dt)[None, :] / p["mass"][:, None]
    pos = p["pos"] + vel * dt
    below = pos[:, 1] < 0
    pos[below, 1] = -pos[below, 1]
    vel[below, 1] = -vel[below, 1] * f32(0.5)
    flags = (p["flags"] | below.astype(np.int16)).astype(np.int16)
    p["pos"], p["vel"], p["flags"] = pos, vel, flags
    p["kind"] = (p["kind"].astype(np.int32) + 1).astype(np.uint8)
    p["id"] = p["id"] * 2 + (flags & 1)
    return {"particles": p}


case("vector_struct", "structs.cl", "struct_particles",
     [_particles_launch(471, 500, 64, 0.125), _particles_launch(472, 30, 16, 0.3)],
     _ref_particles)

REC = np.dtype({"names": ["tag", "value", "s", "f"], "formats": [np.int8, np.int32, np.int16, np.float32],
                "offsets": [0, 4, 8, 12], "itemsize": 16})


def _aos_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    r = np.zeros(n, REC)
    r["tag"] = rng.integers(-128, 128, n)
    r["value"] = rng.integers(-10**6, 10**6, n)
    r["s"] = rng.integers(-32768, 32768, n)
    r["f"] = uniform(rng, -100.0, 100.0, n)
    return L1(cdiv(n, block), block, recs=r, values=np.zeros(n, np.int32), scaled=np.zeros(n, np.float32),
              out=np.zeros(n, REC), n=n)


def _ref_aos(a, launch):
    r = a["recs"]
    tag = r["tag"].astype(np.int64)
    out = np.zeros(r.size, REC)
    out["tag"] = wrap(tag ^ 0x55, np.int8)
    out["value"] = r["value"] - r["s"].astype(np.int32)
    out["s"] = wrap(r["s"].astype(np.int64) * 3, np.int16)
    out["f"] = r["f"] + f32(1.0)
    return {"values": (r["value"].astype(np.int64) * tag + r["s"]).astype(np.int32),
            "scaled": r["f"] * tag.astype(np.float32),
            "out": out[::-1].copy()}


case("vector_struct", "structs.cl", "struct_aos_to_soa",
     [_aos_launch(481, 1000, 128), _aos_launch(482, 7, 4)],
     _ref_aos)

PAIR = np.dtype({"names": ["ij", "w"], "formats": [(np.int32, (2,)), np.float32], "offsets": [0, 8], "itemsize": 16})
EDGE_T = np.dtype({"names": ["p", "flags", "key"], "formats": [PAIR, (np.uint8, (3,)), np.int64],
                 "offsets": [0, 16, 24], "itemsize": 32})


def _edges_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    e = np.zeros(n, EDGE_T)
    e["p"]["ij"] = ints(rng, -2**31, 2**31, (n, 2))
    e["p"]["w"] = uniform(rng, -10.0, 10.0, n)
    e["flags"] = rng.integers(0, 256, (n, 3))
    e["key"] = 12345
    return L1(cdiv(n, block), block, **{"in": e, "out": np.zeros(n, EDGE_T)}, n=n)


def _ref_edges(a, launch):
    e = a["in"]
    n = e.size
    L = launch.block[0]
    G = launch.grid[0]
    full = np.zeros(G * L, EDGE_T)
    full[:n] = e
    ij = full["p"]["ij"]
    key = (ij[:, 0].astype(np.uint32).astype(np.uint64) << np.uint64(32)) | ij[:, 1].astype(np.uint32).astype(np.uint64)
    full["key"] = key.view(np.int64)
    flags = full["flags"]
    full["p"]["w"] = full["p"]["w"] * f32(2.0) + flags[:, 0].astype(np.float32)
    flags[:, 2] = (flags[:, 0].astype(np.int32) + flags[:, 1]).astype(np.uint8)
    full["flags"] = flags
    rev = full.reshape(G, L)[:, ::-1].reshape(-1)
    return {"out": rev[:n].copy()}


case("vector_struct", "structs.cl", "struct_edges_reverse",
     [_edges_launch(491, 1000, 128), _edges_launch(492, 45, 16), _edges_launch(493, 100, 100)],
     _ref_edges)

# ======================================================================================
# Helper functions (helpers.cl)


def _collatz_launch(seed: int, n: int, block: int, limit: int) -> Launch:
    rng = rng_for(seed)
    x = rng.integers(0, 30000, n).astype(np.uint32)
    x[:3] = [0, 1, 27][:n]
    return L1(cdiv(n, block), block, **{"in": x}, out=np.zeros(n, np.uint32), n=n, limit=np.uint32(limit))


def _ref_collatz(a, launch):
    limit = int(a["limit"])
    out = []
    for v in a["in"].tolist():
        steps = 0
        if v > 1:
            while v != 1:
                v = 3 * v + 1 if v & 1 else v >> 1
                steps += 1
                if steps >= limit:
                    break
        out.append(steps)
    return {"out": np.array(out, np.uint32)}


case("helper", "helpers.cl", "helper_collatz",
     [_collatz_launch(501, 600, 64, 1000), _collatz_launch(502, 100, 32, 50)],
     _ref_collatz)


def _gcd_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = ints(rng, -30000, 30001, n)
    b = ints(rng, -30000, 30001, n)
    a[::11] = 0
    b[::13] = 0
    b[5::17] = a[5::17] * 3
    return L1(cdiv(n, block), block, a=a, b=b, g=np.zeros(n, np.int32), l=np.zeros(n, np.int32), n=n)


def _ref_gcd(a, launch):
    g, l = [], []
    for x, y in zip(a["a"].tolist(), a["b"].tolist(), strict=False):
        d = math.gcd(x, y)
        g.append(d)
        l.append(0 if d == 0 else abs(int(x / d) * y))
    return {"g": np.array(g, np.int32), "l": np.array(l, np.int32)}


case("helper", "helpers.cl", "helper_gcd_lcm",
     [_gcd_launch(511, 1000, 128), _gcd_launch(512, 40, 16)],
     _ref_gcd)


def _primes_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    x = rng.integers(0, 100000, n).astype(np.uint32)
    x[:8] = [0, 1, 2, 3, 4, 25, 49, 99991][:n]
    return L1(cdiv(n, block), block, **{"in": x}, flags=np.zeros(n, np.int32), count=np.zeros(1, np.uint32), n=n)


def _is_prime(v: int) -> bool:
    if v < 2:
        return False
    return all(v % d for d in range(2, math.isqrt(v) + 1))


def _ref_primes(a, launch):
    flags = np.array([_is_prime(v) for v in a["in"].tolist()], np.int32)
    return {"flags": flags, "count": np.array([flags.sum()], np.uint32)}


case("helper", "helpers.cl", "helper_primes",
     [_primes_launch(521, 2000, 128), _primes_launch(522, 100, 48)],
     _ref_primes)


def _search_launch(seed: int, m: int, nq: int, block: int) -> Launch:
    rng = rng_for(seed)
    xs = np.sort(np.unique(uniform(rng, -10.0, 10.0, m * 2)))[:m]
    m = xs.size
    ys = uniform(rng, -5.0, 5.0, m)
    q = uniform(rng, -11.0, 11.0, nq)
    q[: min(10, nq)] = xs[rng.integers(0, m, min(10, nq))]          # exact knots
    return L1(cdiv(nq, block), block, xs=xs, ys=ys, queries=q, idx=np.zeros(nq, np.int32),
              vals=np.zeros(nq, np.float32), m=m, nq=nq)


def _ref_search(a, launch):
    xs, ys, q, m = a["xs"], a["ys"], a["queries"], a["m"]
    k = np.searchsorted(xs, q, side="left")
    kk = np.clip(k, 1, m - 1)
    t = (q - xs[kk - 1]) / (xs[kk] - xs[kk - 1])
    v = ys[kk - 1] + t * (ys[kk] - ys[kk - 1])
    v = np.where(k == 0, ys[0], np.where(k == m, ys[m - 1], v)).astype(np.float32)
    return {"idx": k.astype(np.int32), "vals": v}


case("helper", "helpers.cl", "helper_search_interp",
     [_search_launch(531, 200, 1000, 128), _search_launch(532, 5, 30, 16)],
     _ref_search)


def _mandel_launch(seed: int, w: int, h: int, block: tuple[int, int], max_iter: int) -> Launch:
    rng = rng_for(seed)
    x0 = f32(-2.0 + rng.uniform(-0.05, 0.05))
    y0 = f32(-1.2 + rng.uniform(-0.05, 0.05))
    step = f32(2.5 / w)
    return Launch(grid=(cdiv(w, block[0]), cdiv(h, block[1])), block=block,
                  args=dict(iters=np.full((h, w), -1, np.int32), w=w, h=h, x0=x0, y0=y0, step=step, max_iter=max_iter))


def _ref_mandel(a, launch):
    w, h = a["w"], a["h"]
    xs = np.arange(w, dtype=np.float32)[None, :].repeat(h, 0)
    ys = np.arange(h, dtype=np.float32)[:, None].repeat(w, 1)
    cre = a["x0"] + xs * a["step"]
    cim = a["y0"] + ys * a["step"]
    zr = np.zeros((h, w), np.float32)
    zi = np.zeros((h, w), np.float32)
    out = np.full((h, w), a["max_iter"], np.int32)
    active = np.ones((h, w), bool)
    for it in range(a["max_iter"]):
        esc = active & (zr * zr + zi * zi > f32(4.0))
        out[esc] = it
        active &= ~esc
        nr = (zr * zr - zi * zi) + cre
        ni = (zr * zi + zi * zr) + cim
        zr = np.where(active, nr, zr)
        zi = np.where(active, ni, zi)
    return {"iters": out}


case("helper", "helpers.cl", "helper_mandelbrot",
     [_mandel_launch(541, 48, 40, (16, 8), 64), _mandel_launch(542, 30, 17, (8, 8), 200)],
     _ref_mandel)


def _median_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    groups = cdiv(n, block)
    return L1(groups, block, a=uniform(rng, -5.0, 5.0, n), b=uniform(rng, -5.0, 5.0, n),
              c=uniform(rng, -5.0, 5.0, n), med=np.zeros(n, np.float32), sums=np.zeros(groups, np.float32),
              scratch=LocalBuffer(4 * block), n=n)


def _ref_median(a, launch):
    G, L = launch.grid[0], launch.block[0]
    s = np.sort(np.stack([a["a"], a["b"], a["c"]], axis=1), axis=1)
    spread = padded_groups((s[:, 2] - s[:, 0]).astype(np.float32), G, L)
    return {"med": s[:, 1].copy(), "sums": tree_sequential(spread)}


case("helper", "helpers.cl", "helper_median_groupsum",
     [_median_launch(551, 1000, 128), _median_launch(552, 50, 16)],
     _ref_median)

# ======================================================================================
# Integer exactness (integer.cl)


def _u32(rng, size) -> np.ndarray:
    return rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32)


def _wrap32_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    s = rng.integers(0, 64, n).astype(np.uint32)
    s[::9] = _u32(rng, s[::9].size)               # huge shift counts, masked to 5 bits
    return L1(cdiv(n, block), block, a=_u32(rng, n), b=_u32(rng, n), s=s,
              u=np.zeros(6 * n, np.uint32), si=np.zeros(4 * n, np.int32), n=n)


def _ref_wrap32(a, launch):
    x, y, k = a["a"], a["b"], a["s"]
    k31 = k & np.uint32(31)
    u = np.stack([x * y, x + y, x - y, x << k31, x >> k31,
                  (x * np.uint32(2654435761)) ^ (y >> (k & np.uint32(7)))], axis=1)
    sx, sy = x.view(np.int32), y.view(np.int32)
    si = np.stack([(x * y).view(np.int32), sx >> k31.astype(np.int32),
                   c_div((x + y).view(np.int32), 3).astype(np.int32), (sy >> 2) - (sx >> 1)], axis=1)
    return {"u": u.reshape(-1), "si": si.astype(np.int32).reshape(-1)}


case("integer", "integer.cl", "int_wrap32",
     [_wrap32_launch(561, 1000, 128), _wrap32_launch(562, 31, 8)],
     _ref_wrap32)


def _wrap64_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, a=rng.integers(0, 2**64, n, dtype=np.uint64),
              b=rng.integers(0, 2**64, n, dtype=np.uint64), s=rng.integers(0, 200, n).astype(np.uint32),
              u=np.zeros(6 * n, np.uint64), sl=np.zeros(4 * n, np.int64), n=n)


def _s64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def _ref_wrap64(a, launch):
    M = (1 << 64) - 1
    u, sl = [], []
    for x, y, k in zip(a["a"].tolist(), a["b"].tolist(), a["s"].tolist(), strict=False):
        k &= 63
        u += [(x * y) & M, (x + y) & M, (x - ((y << 7) & M)) & M, (x << k) & M, x >> k, (x * y) >> 64]
        lx, ly = _s64(x), _s64(y)
        y32 = y & 0xFFFFFFFF
        y32 = y32 - (1 << 32) if y32 >> 31 else y32
        sl += [_s64(lx * ly), lx >> k, (lx * ly) >> 64, (x & 0xFFFFFFFF) * y32]
    return {"u": np.array(u, np.uint64), "sl": np.array(sl, np.int64)}


case("integer", "integer.cl", "int_wrap64",
     [_wrap64_launch(571, 300, 64), _wrap64_launch(572, 20, 16)],
     _ref_wrap64)


def _divmod_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = ints(rng, INT_MIN + 1, INT_MAX, n)
    a[::3] = ints(rng, -100, 100, a[::3].size)
    b = ints(rng, 1, 20, n) * rng.choice([-1, 1], n).astype(np.int32)
    b[::4] = ints(rng, INT_MIN + 1, INT_MAX, b[::4].size)
    b[b == 0] = 7
    la = rng.integers(-2**62, 2**62, n)
    la[::3] = rng.integers(-1000, 1000, la[::3].size)
    lb = rng.integers(1, 1000, n) * rng.choice([-1, 1], n)
    lb[::5] = rng.integers(-2**40, 2**40, lb[::5].size)
    lb[lb == 0] = -3
    return L1(cdiv(n, block), block, a=a, b=b, la=la.astype(np.int64), lb=lb.astype(np.int64),
              q=np.zeros(6 * n, np.int32), uq=np.zeros(2 * n, np.uint32), lq=np.zeros(2 * n, np.int64), n=n)


def _ref_divmod(a, launch):
    x, y = a["a"].astype(np.int64), a["b"].astype(np.int64)
    q = np.stack([c_div(x, y), c_rem(x, y), c_div(x, 4), c_rem(x, 8), x >> 2,
                  c_div(-x, 7) + c_rem(x, -5)], axis=1).astype(np.int32)
    ux, uy = a["a"].view(np.uint32), a["b"].view(np.uint32)
    uq = np.stack([ux // uy, ux % uy], axis=1)
    lq = []
    for u, v in zip(a["la"].tolist(), a["lb"].tolist(), strict=False):
        d = abs(u) // abs(v)
        d = -d if (u < 0) != (v < 0) else d
        lq += [d, u - d * v]
    return {"q": q.reshape(-1), "uq": uq.reshape(-1), "lq": np.array(lq, np.int64)}


case("integer", "integer.cl", "int_divmod",
     [_divmod_launch(581, 1000, 128), _divmod_launch(582, 50, 16)],
     _ref_divmod)


def _narrow_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = rng.integers(-128, 128, n).astype(np.int8)
    b = rng.integers(-128, 128, n).astype(np.int8)
    a[:4], b[:4] = [-128, -128, 127, 0][:n], [-1, 1, -1, 0][:n]
    return L1(cdiv(n, block), block, a=a, b=b, c=rng.integers(-32768, 32768, n).astype(np.int16),
              d=rng.integers(-32768, 32768, n).astype(np.int16), co=np.zeros(3 * n, np.int8),
              uo=np.zeros(4 * n, np.uint8), so=np.zeros(2 * n, np.int16), io=np.zeros(2 * n, np.int32), n=n)


def _ref_narrow(a, launch):
    x, y = a["a"].astype(np.int64), a["b"].astype(np.int64)
    ux, uy = x & 0xFF, y & 0xFF
    z, w = a["c"].astype(np.int64), a["d"].astype(np.int64)
    co = np.stack([wrap(x * y + z, np.int8), wrap(c_div(x, np.where(y == 0, 1, y)), np.int8),
                   np.clip(x - y, -128, 127).astype(np.int8)], axis=1)
    uo = np.stack([(ux + uy) & 0xFF, (ux * 3) & 0xFF, np.minimum(ux + uy, 255), ((x >> 1) & 0xFF) ^ uy],
                  axis=1).astype(np.uint8)
    so = np.stack([wrap(z * w, np.int16), wrap(wrap(z >> 3, np.int16).astype(np.int64) + c_rem(w, 7), np.int16)],
                  axis=1)
    io = np.stack([(x < ux).astype(np.int64) + 2 * (z > w) + 4 * (ux + uy > 255), ux + y + (z & 0xFFFF)], axis=1)
    return {"co": co.reshape(-1), "uo": uo.reshape(-1), "so": so.reshape(-1), "io": io.astype(np.int32).reshape(-1)}


case("integer", "integer.cl", "int_narrow",
     [_narrow_launch(591, 1000, 128), _narrow_launch(592, 20, 8)],
     _ref_narrow)

_SPECIAL_F = [np.nan, np.inf, -np.inf, 1e10, -1e10, 3e9, -3e9, 2.5, -2.5, 0.5, -0.5, 1.5, -1.5, 3.5, 0.0, -0.0,
              2147483520.0, 2147483648.0, -2147483648.0, 4294967040.0, 4294967296.0, 65535.5, 255.5, 256.0,
              -0.99, 32767.5, -32768.5, 1e20, -1e20, 9.3e18, -9.3e18, 0.4999999701976776]


def _convert_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    f = np.concatenate([uniform(rng, -300.0, 300.0, n // 2), uniform(rng, -1e5, 1e5, n)])[:n]
    f[: min(n, len(_SPECIAL_F))] = np.array(_SPECIAL_F, np.float32)[: min(n, len(_SPECIAL_F))]
    g = uniform(rng, -1e6, 1e6, n)
    g[::3] = np.rint(g[::3]) + f32(0.5)                            # halfway cases for rte
    ii = ints(rng, INT_MIN, INT_MAX, n)
    ii[:4] = [INT_MIN, INT_MAX, 16777217, -16777219][:n]
    ll = rng.integers(-2**63, 2**63, n, dtype=np.int64) >> rng.integers(0, 63, n)
    return L1(cdiv(n, block), block, f=f, g=g, ii=ii, ll=ll, oi=np.zeros(6 * n, np.int32),
              ou=np.zeros(2 * n, np.uint32), o8=np.zeros(n, np.uint8), o16=np.zeros(n, np.int16),
              ol=np.zeros(2 * n, np.int64), of=np.zeros(5 * n, np.float32), n=n)


def _sat(x: np.ndarray, rnd, lo: int, hi: int, dtype) -> np.ndarray:
    v = rnd(np.where(np.isnan(x), 0.0, x.astype(np.float64)))
    out = np.empty(v.shape, np.int64)
    big, small = v >= hi, v <= lo
    out[big], out[small] = hi, lo
    mid = ~(big | small)
    out[mid] = v[mid].astype(np.int64)
    return out.astype(dtype)


def _sat_u32(x: np.ndarray) -> np.ndarray:
    v = np.trunc(np.where(np.isnan(x), 0.0, x.astype(np.float64)))
    return np.clip(v, 0, 2**32 - 1).astype(np.uint32)


def _ref_convert(a, launch):
    f, g = a["f"], a["g"]
    g64 = g.astype(np.float64)
    oi = np.stack([_sat(f, np.trunc, INT_MIN, INT_MAX, np.int32), _sat(f, np.rint, INT_MIN, INT_MAX, np.int32),
                   _sat(f, np.floor, INT_MIN, INT_MAX, np.int32), _sat(f, np.ceil, INT_MIN, INT_MAX, np.int32),
                   np.trunc(g64).astype(np.int32), np.rint(g64).astype(np.int32)], axis=1)
    ou = np.stack([_sat_u32(f), np.trunc(np.abs(g64)).astype(np.uint32)], axis=1)
    o8 = np.clip(np.trunc(np.where(np.isnan(f), 0.0, f.astype(np.float64))), 0, 255).astype(np.uint8)
    o16 = _sat(f, np.rint, -32768, 32767, np.int16)
    LMIN, LMAX = -(2**63), 2**63 - 1
    f64 = np.where(np.isnan(f), 0.0, np.trunc(f.astype(np.float64)))
    lsat = [LMAX if v >= 2.0**63 else (LMIN if v <= -2.0**63 else int(v)) for v in f64.tolist()]
    ol = np.stack([np.array(lsat, np.int64), np.trunc(g64).astype(np.int64) * 3], axis=1)
    of = []
    for m, L in zip(a["ii"].tolist(), a["ll"].tolist(), strict=False):
        of += [round_int_to_f32(m, "rte"), f32_round_toward_zero(np.array([float(m)]))[0], round_int_to_f32(L, "rte"),
               round_int_to_f32(m & 0xFFFFFFFF, "rte"), round_int_to_f32(L, "rtp")]
    return {"oi": oi.reshape(-1), "ou": ou.reshape(-1), "o8": o8, "o16": o16, "ol": ol.reshape(-1),
            "of": np.array(of, np.float32)}


case("integer", "integer.cl", "int_convert",
     [_convert_launch(601, 512, 64), _convert_launch(602, 40, 16)],
     _ref_convert)


def _bitops_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a, b = _u32(rng, n), _u32(rng, n)
    a[:6] = [0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 12345][:n]
    b[:6] = [0, 0xFFFFFFFF, 0xFFFFFFFF, 0x80000000, 1, 32][:n]
    a[6::10] >>= rng.integers(0, 32, a[6::10].size).astype(np.uint32)
    return L1(cdiv(n, block), block, a=a, b=b, out=np.zeros(12 * n, np.uint32), n=n)


def _ref_bitops(a, launch):
    rows = []
    for x, y in zip(a["a"].tolist(), a["b"].tolist(), strict=False):
        sx = x - (1 << 32) if x >> 31 else x
        sy = y - (1 << 32) if y >> 31 else y
        r = y & 31
        rot = ((x << r) | (x >> (32 - r))) & 0xFFFFFFFF if r else x
        rows.append([
            bin(x).count("1"), 32 - x.bit_length(), rot, ((~x & y) | ((x ^ y) >> 3)) & 0xFFFFFFFF,
            (x + y) >> 1, (x + y + 1) >> 1, abs(sx - sy), min(max(sx + sy, INT_MIN), INT_MAX) & 0xFFFFFFFF,
            max(x - y, 0), (x * y) >> 32, ((x >> 16) << 16) | (y & 0xFFFF),
            (min(max(sx, -1000), 1000) + abs(sy) + max(sx, sy) - min(sx, sy)) & 0xFFFFFFFF,
        ])
    return {"out": np.array(rows, np.uint64).astype(np.uint32).reshape(-1)}


case("integer", "integer.cl", "int_bitops",
     [_bitops_launch(611, 1000, 128), _bitops_launch(612, 12, 4)],
     _ref_bitops)


def _select_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = ints(rng, -10**6, 10**6, n)
    b = ints(rng, -10**6, 10**6, n)
    a[::7] = 0
    b[::5] = a[::5]
    b[2::9] = 0
    fa = uniform(rng, -4.0, 4.0, n)
    fb = uniform(rng, -4.0, 4.0, n)
    fb[::6] = fa[::6]
    return L1(cdiv(n, block), block, a=a, b=b, fa=fa, fb=fb, oi=np.zeros(5 * n, np.int32),
              ov=np.zeros((n, 4), np.int32), of=np.zeros(2 * n, np.float32), n=n)


def _ref_select(a, launch):
    x, y = a["a"].astype(np.int64), a["b"].astype(np.int64)
    nested = np.where(x > y, np.where(x > 0, 1, 2), np.where(y > 0, 3, 4))
    oi = np.stack([np.where(x > y, y, x), nested, (x & 0xFFFFFFFF) < (y & 0xFFFFFFFF),
                   np.where(x & 1, x, -c_div(x, 2)),
                   (x == 0) + ((x != 0) & (y != 0)) * 2 + ((x != 0) | (y == 0)) * 4], axis=1)
    c = np.stack([x, y, x ^ y, -np.ones_like(x)], axis=1)
    ov = np.where(c < 0, y[:, None], x[:, None])
    u, v = a["fa"], a["fb"]
    of = np.stack([np.where(u < v, v, u), np.where(u > v, u - v, np.where(v > 2, v, u * f32(0.5)))], axis=1)
    return {"oi": oi.astype(np.int32).reshape(-1), "ov": ov.astype(np.int32), "of": of.astype(np.float32).reshape(-1)}


case("integer", "integer.cl", "int_select",
     [_select_launch(621, 1000, 128), _select_launch(622, 25, 8)],
     _ref_select)


def _switch_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    v = ints(rng, -5000, 5000, n)
    v[::4] = ints(rng, -130, 130, v[::4].size)
    v[:5] = [97, -1, 0, 255, 353][:n]
    return L1(cdiv(n, block), block, **{"in": v}, out=np.zeros(3 * n, np.int32), n=n)


def _ref_switch(a, launch):
    out = []
    for v in a["in"].tolist():
        m = int(c_rem(v, 7))
        r = 0
        if m == 0:
            r = 10
        elif m in (1, 2, 3):
            if m != 3:
                r = v * 2
            r += 1
        elif m == -1:
            r = -100
        elif m in (-3, -6):
            r = v & 0xFF
        else:
            r = v
        acc = 0
        for k in range(12):
            sel = (v + k) & 3
            if sel == 0:
                continue
            if sel == 1:
                acc += k
            elif sel == 2:
                acc ^= k << 2
            else:
                acc -= 1
            if acc > 40:
                break
        c = ((v & 0xFF) ^ 0x80) - 0x80
        t = 1 if c == 97 else 2 if c == -1 else 3 if c == 0 else (4 if c > 0 else 5)
        out += [r, acc, t]
    return {"out": np.array(out, np.int32)}


case("integer", "integer.cl", "int_switch",
     [_switch_launch(631, 1000, 128), _switch_launch(632, 30, 16)],
     _ref_switch)


def _hash_launch(seed: int, n: int, block: int, rounds: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, seeds=_u32(rng, n), h32=np.zeros(n, np.uint32), h64=np.zeros(n, np.uint64),
              n=n, rounds=rounds)


def _ref_hash(a, launch):
    U32, U64 = np.uint32, np.uint64
    s = a["seeds"].copy()
    z = (s.astype(U64) << U64(32)) | np.arange(s.size, dtype=U64)
    for r in range(a["rounds"]):
        t = s ^ (s << U32(13))
        t ^= t >> U32(17)
        t ^= t << U32(5)
        h = t + U32(r)
        h ^= h >> U32(16)
        h *= U32(0x85EBCA6B)
        h ^= h >> U32(13)
        h *= U32(0xC2B2AE35)
        h ^= h >> U32(16)
        s = h
        q = (z ^ s.astype(U64)) + U64(0x9E3779B97F4A7C15)
        q = (q ^ (q >> U64(30))) * U64(0xBF58476D1CE4E5B9)
        q = (q ^ (q >> U64(27))) * U64(0x94D049BB133111EB)
        z = q ^ (q >> U64(31))
    return {"h32": s, "h64": z}


case("integer", "integer.cl", "int_hash",
     [_hash_launch(641, 1000, 128, 5), _hash_launch(642, 33, 32, 17)],
     _ref_hash)

# ======================================================================================
# Math built-ins (math.cl)


def _math_exact_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = uniform(rng, -10.0, 10.0, n)
    a[::4] = (rng.integers(-160, 160, a[::4].size) / 16).astype(np.float32)   # x * 8 lands on halves
    b = uniform(rng, 0.1, 5.0, n) * rng.choice([-1, 1], n).astype(np.float32)
    b[::9] = a[::9]
    c = uniform(rng, -10.0, 10.0, n)
    c[1::5] = -(a[1::5] * b[1::5])                                           # fma cancellation
    return L1(cdiv(n, block), block, a=a, b=b, c=c, o=np.zeros(14 * n, np.float32), n=n)


def _ref_math_exact(a, launch):
    x, y, z = a["a"], a["b"], a["c"]
    v = x * f32(8.0)
    v64 = v.astype(np.float64)
    t = np.trunc(v64)
    rnd = np.where(np.abs(v64 - t) >= 0.5, t + np.sign(v64), t).astype(np.float32)
    cols = [np.sqrt(np.abs(x)), x / y, np.floor(v), np.ceil(v), np.trunc(v), rnd, np.rint(v), np.fmin(x, y),
            np.fmax(x, y), fma_f32(x, y, z), np.copysign(x, y), np.fmod(x, y),
            np.where(x > y, x - y, f32(0.0)), x * y - z]
    return {"o": np.stack([np.asarray(c, np.float32) for c in cols], axis=1).reshape(-1)}


case("math", "math.cl", "math_exact",
     [_math_exact_launch(651, 1000, 128), _math_exact_launch(652, 50, 16)],
     _ref_math_exact)


def _decompose_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = (uniform(rng, 0.5, 1.0, n) * np.exp2(rng.integers(-20, 20, n)).astype(np.float32)
         * rng.choice([-1, 1], n).astype(np.float32))
    a[:8] = np.array([-3.0, 4.0, 0.5, -1e-9, 1e-9, 2.75, -2.75, 1.0], np.float32)[: min(8, n)]
    return L1(cdiv(n, block), block, a=a.astype(np.float32), fo=np.zeros(6 * n, np.float32),
              io=np.zeros(2 * n, np.int32), n=n)


def _ref_decompose(a, launch):
    x = a["a"]
    m, e = np.frexp(x)
    fp, ip = np.modf(x)
    fl = np.floor(x)
    fr = np.minimum(x - fl, np.nextafter(f32(1.0), f32(0.0)))
    i = np.arange(x.size)
    fo = np.stack([m, fp, ip, fr, np.ldexp(x, (i % 9 - 4)).astype(np.float32), np.nextafter(x, f32(0.0))], axis=1)
    io = np.stack([e, e - 1], axis=1)
    return {"fo": fo.astype(np.float32).reshape(-1), "io": io.astype(np.int32).reshape(-1)}


case("math", "math.cl", "math_decompose",
     [_decompose_launch(661, 600, 64), _decompose_launch(662, 20, 8)],
     _ref_decompose)


def _explog_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    y = np.exp(rng.uniform(np.log(0.01), np.log(100.0), n)).astype(np.float32)
    return L1(cdiv(n, block), block, x=uniform(rng, -5.0, 5.0, n), y=y, o=np.zeros(8 * n, np.float32), n=n)


def _ref_explog(a, launch):
    u = a["x"].astype(np.float64)
    v = a["y"].astype(np.float64)
    cols = [np.exp(u), np.exp2(u), 10.0 ** (u * 0.5), np.expm1(u), np.log(v), np.log2(v), np.log10(v), np.log1p(v)]
    return {"o": f64_to_f32(np.stack(cols, axis=1)).reshape(-1)}


case("math", "math.cl", "math_exp_log",
     [_explog_launch(671, 1000, 128), _explog_launch(672, 40, 8)],
     _ref_explog, compare="ulp")


def _trig_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, x=uniform(rng, -3.0, 3.0, n), y=uniform(rng, -0.95, 0.95, n),
              o=np.zeros(9 * n, np.float32), n=n)


def _ref_trig(a, launch):
    u = a["x"].astype(np.float64)
    v = a["y"].astype(np.float64)
    t = (a["x"] * f32(0.45)).astype(np.float64)
    cols = [np.sin(u), np.cos(u), np.sin(u), np.cos(u), np.tan(t), np.arcsin(v), np.arccos(v), np.arctan(u),
            np.arctan2(v, u)]
    return {"o": f64_to_f32(np.stack(cols, axis=1)).reshape(-1)}


case("math", "math.cl", "math_trig",
     [_trig_launch(681, 1000, 128), _trig_launch(682, 40, 8)],
     _ref_trig, compare="ulp")


def _pow_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, x=uniform(rng, 0.1, 10.0, n), y=uniform(rng, -3.0, 3.0, n),
              z=uniform(rng, -3.0, 3.0, n), o=np.zeros(9 * n, np.float32), n=n)


def _ref_pow(a, launch):
    b = a["x"].astype(np.float64)
    e = a["y"].astype(np.float64)
    t = a["z"].astype(np.float64)
    k = np.arange(b.size) % 7 - 3
    cols = [b ** e, b ** k.astype(np.float64), b ** e, 1.0 / np.sqrt(b), np.cbrt(t), np.hypot(t, e), np.tanh(t),
            np.sinh(t), np.cosh(t)]
    return {"o": f64_to_f32(np.stack(cols, axis=1)).reshape(-1)}


case("math", "math.cl", "math_pow_hyp",
     [_pow_launch(691, 1000, 128), _pow_launch(692, 40, 8)],
     _ref_pow, compare="ulp")


def _mad_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, a=uniform(rng, 0.5, 2.0, n), b=uniform(rng, 0.5, 2.0, n),
              c=uniform(rng, 0.5, 2.0, n), o=np.zeros(2 * n, np.float32), n=n)


def _ref_mad(a, launch):
    x, y, z = (a[k].astype(np.float64) for k in "abc")
    return {"o": f64_to_f32(np.stack([x * y + z, x * x + (y * z + 1.0)], axis=1)).reshape(-1)}


case("math", "math.cl", "math_mad",
     [_mad_launch(701, 1000, 128), _mad_launch(702, 30, 16)],
     _ref_mad, compare="ulp", notes="mad() may be fused or not: the two answers differ by an ulp")


def _horner_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, x=uniform(rng, 0.5, 4.0, n), poly=np.zeros(n, np.float32),
              root=np.zeros(n, np.float32), series=np.zeros(n, np.float32), n=n)


def _ref_horner(a, launch):
    v = a["x"]
    coef = np.array([0.5, -1.25, 0.75, 2.0, -0.375, 0.0625], np.float32)
    p = np.full_like(v, coef[5])
    for k in range(4, -1, -1):
        p = p * v + coef[k]
    g = np.where(v > 1, v, f32(1.0)).astype(np.float32)
    for _ in range(6):
        g = f32(0.5) * (g + v / g)
    term = np.ones_like(v)
    total = np.ones_like(v)
    w = -v * f32(0.25)
    for k in range(1, 12):
        term = term * w / f32(k)
        total = total + term
    return {"poly": p, "root": g, "series": total}


case("math", "math.cl", "math_horner_newton",
     [_horner_launch(711, 1000, 128), _horner_launch(712, 9, 4)],
     _ref_horner)


def _f64_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    a = rng.uniform(-100.0, 100.0, n)
    b = rng.uniform(0.5, 50.0, n) * rng.choice([-1.0, 1.0], n)
    return L1(cdiv(n, block), block, a=a, b=b, o=np.zeros(5 * n), narrowed=np.zeros(n, np.float32), n=n)


def _ref_f64(a, launch):
    x, y = a["a"], a["b"]
    fma = np.array([float(Fraction(u) * Fraction(v) - 1) for u, v in zip(x.tolist(), y.tolist(), strict=False)])
    o = np.stack([np.sqrt(np.abs(x)), x / y, fma, np.floor(x * 1000.0) + x * y,
                  x.astype(np.float32).astype(np.float64) - x], axis=1)
    return {"o": o.reshape(-1), "narrowed": (x * y).astype(np.float32)}


case("math", "math.cl", "math_f64",
     [_f64_launch(721, 500, 64), _f64_launch(722, 11, 4)],
     _ref_f64)


FAMILIES = sorted({c.family for c in CASES})


# ======================================================================================
# Asynchronous work-group copies (async.cl)


def _async_block_launch(seed: int, n: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, block), block, **{"in": uniform(rng, -10.0, 10.0, n)}, out=np.zeros(n, np.float32),
              tile=LocalBuffer(4 * block), rev=LocalBuffer(4 * block), n=np.int32(n))


def _ref_async_block(a, launch):
    x = a["in"]
    block = launch.block[0]
    out = np.zeros_like(x)
    for base in range(0, x.size, block):
        t = x[base:base + block]
        out[base:base + t.size] = (t + np.roll(t, -1))[::-1]
    return {"out": out}


case("async", "async.cl", "async_block_sum",
     [_async_block_launch(801, 1000, 64), _async_block_launch(802, 37, 16), _async_block_launch(803, 128, 128)],
     _ref_async_block)


def _async_column_launch(seed: int, rows: int, cols: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cols, block, **{"in": ints(rng, -1000, 1000, rows * cols)}, out=np.zeros(rows * cols, np.int32),
              first=np.zeros(cols, np.int32), col=LocalBuffer(4 * rows), head=LocalBuffer(4), rows=np.int32(rows),
              cols=np.int32(cols))


def _ref_async_column(a, launch):
    rows, cols = int(a["rows"]), int(a["cols"])
    m = a["in"].reshape(rows, cols)
    head = a["in"][np.arange(cols) * cols]  # group g's first element of row g (rows >= cols)
    out = 2 * m + np.arange(rows, dtype=np.int32)[:, None] + head[None, :]
    return {"out": out.reshape(-1).astype(np.int32), "first": head.copy()}


case("async", "async.cl", "async_column_scale",
     [_async_column_launch(811, 50, 8, 16), _async_column_launch(812, 7, 3, 32), _async_column_launch(813, 64, 5, 64)],
     _ref_async_column)


def _async_int4_launch(seed: int, groups: int, block: int) -> Launch:
    rng = rng_for(seed)
    n = groups * block
    return L1(groups, block, **{"in": ints(rng, -100000, 100000, 4 * n)}, out=np.zeros(4 * n, np.int32),
              a=LocalBuffer(16 * block), b=LocalBuffer(16 * block))


def _ref_async_int4(a, launch):
    block = launch.block[0]
    x = a["in"].reshape(-1, block, 4)
    lid = np.arange(block, dtype=np.int32)
    add = np.stack([lid, 2 * lid, 3 * lid, 4 * lid], axis=1)
    return {"out": (x[:, ::-1, :] + add[None]).reshape(-1).astype(np.int32)}


case("async", "async.cl", "async_int4",
     [_async_int4_launch(821, 4, 64), _async_int4_launch(822, 3, 5)],
     _ref_async_int4)


# ======================================================================================
# Images and samplers (images.cl): integer coordinates, nearest filtering, clamp modes

CLAMP_TO_EDGE_NEAREST = 0x12  # CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST


def _image_cross_launch(seed: int, h: int, w: int, block: tuple[int, int]) -> Launch:
    rng = rng_for(seed)
    grid = (cdiv(w, block[0]), cdiv(h, block[1]))
    return Launch(grid=grid, block=block, args={"img": uniform(rng, -4.0, 4.0, (h, w, 4)),
                                                 "out": np.zeros((h, w, 4), np.float32),
                                                 "s": np.int32(CLAMP_TO_EDGE_NEAREST)})


def _ref_image_cross(a, launch):
    img = a["img"]
    h, w, _ = img.shape
    edge = np.pad(img, ((0, 0), (1, 1), (0, 0)), mode="edge")  # x clamped to the edge
    border = np.pad(img, ((1, 1), (0, 0), (0, 0)))  # y outside reads the border colour (0)
    left, right = edge[:, :-2], edge[:, 2:]
    up, down = border[:-2], border[2:]
    return {"out": ((left + right) + (up + down)).astype(np.float32)}


case("images", "images.cl", "image_cross",
     [_image_cross_launch(901, 8, 8, (4, 4)), _image_cross_launch(902, 5, 7, (4, 2)),
      _image_cross_launch(903, 16, 3, (1, 8))],
     _ref_image_cross)


def _image_ints_launch(seed: int, w: int, block: int) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(w, block), block, plane=ints(rng, -1000, 1000, (2, w, 4)), row=np.zeros((w, 4), np.int32),
              sums=np.zeros(4 * cdiv(w, block) * block, np.int32))


def _ref_image_ints(a, launch):
    plane = a["plane"]
    w = plane.shape[1]
    n = launch.grid[0] * launch.block[0]
    v = np.zeros((n, 4), np.int32)
    cols = np.minimum(np.arange(n), w - 1)  # no sampler: reads past the edge clamp to it
    v[:] = plane[0, cols] + plane[1, cols]
    row = np.zeros((w, 4), np.int32)
    row[:] = v[:w]
    return {"row": row, "sums": (2 * v).reshape(-1).astype(np.int32)}


case("images", "images.cl", "image_ints",
     [_image_ints_launch(911, 64, 64), _image_ints_launch(912, 32, 16)],
     _ref_image_ints)


# --------------------------------------------------------------------------------------
# Images with float coordinates (images.cl): normalised and unnormalised coordinates, every addressing
# mode, nearest and linear filtering; image arrays and image buffers.  The references follow s8.2 of the
# OpenCL 1.2 specification texel by texel (float32 coordinates, float64 blending: compared within 1e-5).

NORM, EDGE, CLAMP_B, REPEAT, MIRROR, LINEAR = 0x01, 0x02, 0x04, 0x06, 0x08, 0x20


def _ref_texel(img: np.ndarray, idx: list[int], border: np.ndarray) -> np.ndarray:
    size = img.shape[:-1][::-1]
    if any(i < 0 or i >= m for i, m in zip(idx, size, strict=True)):
        return border
    v = img[tuple(idx[::-1])].astype(np.float64)
    v = v / 255.0 if img.dtype == np.uint8 else v
    out = np.array([0.0, 0.0, 0.0, 1.0]) if img.shape[-1] == 1 else np.zeros(4)
    out[:img.shape[-1]] = v
    return out


def _ref_sample(img: np.ndarray, coord, bits: int) -> np.ndarray:
    """One read_image{f,i,ui}(img, sampler bits, float coord) by the specification's formulas."""
    size = img.shape[:-1][::-1]
    mode = bits & 0xE
    border = np.array([0.0, 0.0, 0.0, 1.0]) if img.shape[-1] == 1 else np.zeros(4)
    us = []
    for k, m in enumerate(size):
        s = f32(coord[k])
        if mode == REPEAT:
            u = f32(f32(s - np.floor(s)) * f32(m))
        elif mode == MIRROR:
            u = f32(f32(abs(f32(s - f32(2) * np.rint(f32(0.5) * s)))) * f32(m))
        else:
            u = f32(s * f32(m)) if bits & NORM else s
        us.append(u)
    if not bits & LINEAR:
        idx = []
        for u, m in zip(us, size, strict=True):
            i = int(np.floor(u))
            i = (i - m if i > m - 1 else i) if mode == REPEAT else min(i, m - 1) if mode == MIRROR else \
                min(max(i, 0), m - 1) if mode == EDGE else i
            idx.append(i)
        return _ref_texel(img, idx, border)
    lo, hi, wa = [], [], []
    for u, m in zip(us, size, strict=True):
        t = f32(u - f32(0.5))
        i0 = int(np.floor(t))
        i1 = i0 + 1
        if mode == REPEAT:
            i0, i1 = (i0 + m if i0 < 0 else i0), (i1 - m if i1 > m - 1 else i1)
        elif mode == MIRROR:
            i0, i1 = max(i0, 0), min(i1, m - 1)
        elif mode == EDGE:
            i0, i1 = min(max(i0, 0), m - 1), min(max(i1, 0), m - 1)
        lo.append(i0)
        hi.append(i1)
        wa.append(float(t) - np.floor(float(t)))
    total = np.zeros(4)
    for corner in range(1 << len(size)):
        w, idx = 1.0, []
        for k in range(len(size)):
            up = (corner >> k) & 1
            w *= wa[k] if up else 1.0 - wa[k]
            idx.append(hi[k] if up else lo[k])
        total += w * _ref_texel(img, idx, border)
    return total


def _sample2d_launch(seed: int, bits: int, h: int, w: int, dtype, channels: int, lo: float, hi: float,
                     n: int = 256) -> Launch:
    rng = rng_for(seed)
    img = uniform(rng, -4.0, 4.0, (h, w, channels)) if dtype == np.float32 else \
        ints(rng, 0, 256, (h, w, channels), np.uint8)
    return L1(cdiv(n, 64), 64, img=img, s=np.int32(bits), coords=uniform(rng, lo, hi, (n, 2)),
              out=np.zeros((n, 4), np.float32))


def _ref_sample2d(a, launch):
    bits = int(a["s"])
    return {"out": np.array([_ref_sample(a["img"], c, bits) for c in a["coords"]], np.float32)}


case("images", "images.cl", "image_sample2d",
     [_sample2d_launch(921, NORM | REPEAT | LINEAR, 5, 6, np.float32, 4, -1.5, 2.5),
      _sample2d_launch(922, NORM | MIRROR | LINEAR, 4, 7, np.float32, 4, -2.5, 2.5),
      _sample2d_launch(923, CLAMP_B | LINEAR, 5, 6, np.float32, 4, -2.0, 8.0),
      _sample2d_launch(924, NORM | EDGE | LINEAR, 6, 5, np.uint8, 4, -0.2, 1.2),
      _sample2d_launch(925, EDGE | LINEAR, 4, 4, np.uint8, 1, -1.0, 5.0),
      _sample2d_launch(926, NORM | REPEAT, 3, 5, np.float32, 1, -1.5, 2.5),
      _sample2d_launch(927, NORM | MIRROR, 5, 3, np.uint8, 4, -2.5, 2.5),
      _sample2d_launch(928, NORM | CLAMP_B, 4, 6, np.float32, 4, -0.5, 1.5)],
     _ref_sample2d, ref_compare="close", ref_rtol=1e-5, ref_atol=1e-6)


def _sample3d_launch(seed: int, bits: int, n: int = 128) -> Launch:
    rng = rng_for(seed)
    return L1(cdiv(n, 64), 64, vol=uniform(rng, -2.0, 2.0, (3, 4, 5, 4)), ivol=ints(rng, -500, 500, (2, 3, 4, 4)),
              urow=ints(rng, 0, 1 << 31, (7, 4), np.uint32), s=np.int32(bits),
              coords=uniform(rng, -0.4, 1.4, (n, 4)), out=np.zeros((n, 4), np.float32),
              iout=np.zeros((n, 4), np.int32), uout=np.zeros((n, 4), np.uint32))


def _ref_sample3d(a, launch):
    bits = int(a["s"])
    tri = NORM | EDGE | LINEAR
    return {"out": np.array([_ref_sample(a["vol"], c, tri) for c in a["coords"]], np.float32),
            "iout": np.array([_ref_sample(a["ivol"], c, bits) for c in a["coords"]]).astype(np.int32),
            "uout": np.array([_ref_sample(a["urow"], c, bits) for c in a["coords"]]).astype(np.uint32)}


case("images", "images.cl", "image_sample3d",
     [_sample3d_launch(931, NORM | REPEAT), _sample3d_launch(932, NORM | MIRROR), _sample3d_launch(933, NORM | EDGE),
      _sample3d_launch(934, NORM | CLAMP_B)],
     _ref_sample3d, ref_compare="close", ref_rtol=1e-5, ref_atol=1e-6)


def _layers_launch(seed: int, h: int, w: int, block: tuple[int, int], bits: int) -> Launch:
    rng = rng_for(seed)
    grid = (cdiv(w, block[0]), cdiv(h, block[1]))
    gw, gh = grid[0] * block[0], grid[1] * block[1]
    return Launch(grid=grid, block=block, args={
        "planes": uniform(rng, -4.0, 4.0, (3, h, w, 4)), "rows": uniform(rng, -4.0, 4.0, (2, w, 4)),
        "line": uniform(rng, -4.0, 4.0, (w, 4)), "copy": np.zeros((2, h, w, 4), np.float32),
        "s": np.int32(bits), "out": np.zeros((gh * gw, 4), np.float32)})


def _ref_layers(a, launch):
    planes, rows, line = a["planes"], a["rows"], a["line"]
    _, h, w, _ = planes.shape
    gw, gh = launch.grid[0] * launch.block[0], launch.grid[1] * launch.block[1]
    out, copy = np.zeros((gh * gw, 4), np.float32), a["copy"].copy()
    for y in range(gh):
        for x in range(gw):
            cx, cy = min(x, w - 1), min(y, h - 1)  # an unnormalised sampler clamps to the edge
            layer = int(np.clip(np.rint(f32(x % 4) - f32(0.75)), 0, 2))
            pa = planes[layer, cy, cx]
            pb = rows[min(max(y - 1, 0), 1), cx]  # no sampler: clamped in simu and PoCL alike
            pc = line[cx]
            if x < w and y < h:
                copy[y % 2, y, x] = planes[2, y, x]
            out[y * gw + x] = ((pa + pb * f32(2)) + pc * f32(4)) + f32(2)
    return {"out": out, "copy": copy}


case("images", "images.cl", "image_layers",
     [_layers_launch(941, 4, 8, (4, 4), EDGE), _layers_launch(942, 6, 5, (5, 2), CLAMP_B | LINEAR)],
     _ref_layers, ref_compare="close", ref_rtol=1e-5, ref_atol=1e-6)


def _arrays_launch(seed: int, s: int, a: int, lo: float, hi: float, n: int = 128) -> Launch:
    rng = rng_for(seed)
    coords = np.concatenate([uniform(rng, lo, hi, (n, 1)), uniform(rng, -2.0, 8.0, (n, 2)),
                             uniform(rng, -1.4, 3.4, (n, 1))], axis=1)
    return L1(cdiv(n, 64), 64, row=uniform(rng, -4.0, 4.0, (7, 4)), rows=ints(rng, 0, 256, (3, 6, 4), np.uint8),
              planes=uniform(rng, -4.0, 4.0, (3, 5, 6, 4)), s=np.int32(s), a=np.int32(a), coords=coords,
              out=np.zeros((3 * n, 4), np.float32))


def _ref_arrays(args, launch):
    out = []
    s, a = int(args["s"]), int(args["a"])
    for x, u, v, w in args["coords"]:
        layer = int(np.clip(np.rint(w), 0, 2))
        out += [_ref_sample(args["row"], [x], s), _ref_sample(args["rows"][layer], [u], a),
                _ref_sample(args["planes"][layer], [u, v], a)]
    return {"out": np.array(out, np.float32)}


case("images", "images.cl", "image_sample_arrays",
     [_arrays_launch(951, NORM | REPEAT | LINEAR, EDGE | LINEAR, -1.5, 2.5),
      _arrays_launch(952, NORM | MIRROR | LINEAR, CLAMP_B | LINEAR, -2.5, 2.5),
      _arrays_launch(953, CLAMP_B | LINEAR, CLAMP_B, -2.0, 9.0),
      _arrays_launch(954, NORM | EDGE, EDGE, -0.5, 1.5)],
     _ref_arrays, ref_compare="close", ref_rtol=1e-5, ref_atol=1e-6)
