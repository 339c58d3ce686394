"""Inline PTX register arithmetic (simu/interp/ptx_alu.py) against exact Python references."""

from __future__ import annotations

import numpy as np
import pytest

from simu.api import load_source
from simu.interp import run
from simu.launch import Launch

KERNEL = r"""
__global__ void ops(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out, float *fout) {
  int t = threadIdx.x;
  unsigned x = a[t], y = b[t], z = c[t], r;
  unsigned *o = out + t * 12;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[0] = r;   // a ^ b ^ c
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[1] = r;   // majority
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[2] = r;
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[3] = r;
  asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(r) : "r"(x), "r"(y)); o[4] = r;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[5] = r;
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(x)); o[6] = r;
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(x)); o[7] = r;
  asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x)); o[8] = r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(x)); o[9] = r;
  int s;
  asm("bfe.s32 %0, %1, 4, 8;" : "=r"(s) : "r"(x)); o[10] = (unsigned)s;
  unsigned long long w;
  asm("mov.b64 %0, {%1, %2};" : "=l"(w) : "r"(x), "r"(y)); o[11] = (unsigned)(w >> 32) ^ (unsigned)w;
  float f = (float)(x % 1000) + 1.0f, g;
  asm("rcp.approx.f32 %0, %1;" : "=f"(g) : "f"(f)); fout[t] = g;
}
"""

M32 = 0xFFFFFFFF


def _ref(x: int, y: int, z: int) -> list[int]:
    def lop3(lut):
        return sum(((lut >> (((x >> i) & 1) << 2 | ((y >> i) & 1) << 1 | ((z >> i) & 1))) & 1) << i for i in range(32))
    n = z & 31
    both = (y << 32) | x
    shl = ((both << n) >> 32) & M32
    shr = (both >> n) & M32
    sel = 0x5140
    prmt = 0
    for k in range(4):
        nib = (sel >> (4 * k)) & 0xF
        prmt |= ((both >> ((nib & 7) * 8)) & 0xFF) << (8 * k)
    field = (x >> 4) & 0xFF
    signed = field - 256 if field & 0x80 else field
    clz = 32 - x.bit_length()
    brev = int(f"{x:032b}"[::-1], 2)
    return [lop3(0x96), lop3(0xE8), shl, shr, prmt, (x * y) >> 32, field, bin(x).count("1"), clz, brev,
            signed & M32, y ^ x]


def test_integer_forms_are_exact():
    module = load_source(KERNEL, "cuda")
    kernel = module.kernel()
    rng = np.random.default_rng(3)
    a, b, c = (rng.integers(0, 1 << 32, 32, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    a[0], a[1] = 0, 0x80F0  # clz of 0, a negative bfe field
    args = {"a": a, "b": b, "c": c, "out": np.zeros(32 * 12, np.uint32), "fout": np.zeros(32, np.float32)}
    result = run(module, kernel, Launch((1, 1, 1), (32, 1, 1), args))
    assert result.outcome.completed, result.outcome
    got = result.buffers["out"].view(np.uint32).reshape(32, 12)
    for t in range(32):
        assert list(map(int, got[t])) == _ref(int(a[t]), int(b[t]), int(c[t])), t
    f = (a % 1000).astype(np.float32) + 1
    assert np.allclose(result.buffers["fout"].view(np.float32), 1 / f, rtol=1e-6)


@pytest.mark.parametrize("text", ["mul.wide.u64 %0, %1, %2;", "vote.any.pred %0, %1;"])
def test_other_forms_stay_unsupported(text):
    from simu.errors import UnsupportedError

    src = ('__global__ void k(unsigned long long *o, unsigned long long x) { unsigned long long r; '
           f'asm("{text}" : "=l"(r) : "l"(x), "l"(x)); o[threadIdx.x] = r; }}')
    module = load_source(src, "cuda")
    with pytest.raises(UnsupportedError, match="inline assembly"):
        run(module, module.kernel(), Launch((1, 1, 1), (1, 1, 1), {"o": np.zeros(1, np.uint64), "x": 3}))


BLOCKS = r"""
__global__ void blocks(const unsigned *in, unsigned *found, unsigned long long *rotated) {
  int t = threadIdx.x;
  unsigned r, s, n = t % 64;
  asm("bfind.u32 %0,%1;" : "=r"(r) : "r"(in[t]));
  asm("bfind.shiftamt.u32 %0,%1;" : "=r"(s) : "r"(in[t]));
  asm volatile("// a marker the programmer left;");
  unsigned long long x = ((unsigned long long)in[t] << 32) | (in[t] ^ 0x9E3779B9u), y;
  asm("{ .reg .u64 lhs; .reg .u32 roff; shl.b64 lhs, %1, %2; sub.u32 roff, 64, %2;"
      " shr.b64 %0, %1, roff; add.u64 %0, lhs, %0; }" : "=l"(y) : "l"(x), "r"(n));
  found[2 * t] = r; found[2 * t + 1] = s; rotated[t] = y;
}
"""


def test_bfind_comments_and_straight_line_integer_blocks_are_modelled():
    """``bfind`` (all ones for zero), an ``asm`` holding only a comment (a no-op), and a block of integer
    instructions over named registers: a 64-bit rotate whose right shift is by 64 at n = 0 (zero, as PTX clamps)."""
    module = load_source(BLOCKS, "cuda")
    x = np.array([0, 1, 2, 3, 0x80000000, 12345, 7, 0xFFFFFFFF] * 8, np.uint32)
    args = {"in": x, "found": np.zeros(128, np.uint32), "rotated": np.zeros(64, np.uint64)}
    result = run(module, module.kernel(), Launch((1, 1, 1), (64, 1, 1), args))
    assert result.outcome.completed, result.outcome
    found = result.buffers["found"].view(np.uint32).reshape(64, 2)
    msb = [int(v).bit_length() - 1 for v in x]
    assert list(map(int, found[:, 0])) == [m & M32 for m in msb]
    assert list(map(int, found[:, 1])) == [(31 - m) & M32 if m >= 0 else M32 for m in msb]
    for t, v in enumerate(x):
        w = (int(v) << 32) | (int(v) ^ 0x9E3779B9)
        n = t % 64
        expect = ((w << n) + ((w >> (64 - n)) if n else 0)) & ((1 << 64) - 1)
        assert int(result.buffers["rotated"].view(np.uint64)[t]) == expect, t


def test_an_asm_block_with_several_outputs_returns_each():
    src = r"""
__global__ void k(unsigned *out, const unsigned long long *in) {
  int i = threadIdx.x;
  unsigned lo, hi, a, b;
  asm("mov.b64 {%0,%1},%2;" : "=r"(lo), "=r"(hi) : "l"(in[i]));
  asm("lop3.b32 %0, %2, %3, %4, 0x96; lop3.b32 %1, %2, %3, %4, 0xE8;"
      : "=r"(a), "=r"(b) : "r"(lo), "r"(hi), "r"(lo ^ 5u));
  out[4 * i] = lo; out[4 * i + 1] = hi; out[4 * i + 2] = a; out[4 * i + 3] = b;
}"""
    module = load_source(src, "cuda")
    x = np.array([0x123456789ABCDEF0, 1, 0xFFFFFFFF00000000, 42] * 8, np.uint64)
    result = run(module, module.kernel(), Launch((1, 1, 1), (32, 1, 1), {"out": np.zeros(128, np.uint32), "in": x}))
    assert result.outcome.completed, result.outcome
    got = result.buffers["out"].view(np.uint32).reshape(32, 4)
    lo, hi = (x & np.uint64(M32)).astype(np.uint32), (x >> np.uint64(32)).astype(np.uint32)
    c = lo ^ np.uint32(5)
    assert np.array_equal(got[:, 0], lo) and np.array_equal(got[:, 1], hi)
    assert np.array_equal(got[:, 2], lo ^ hi ^ c) and np.array_equal(got[:, 3], (lo & hi) | (lo & c) | (hi & c))


def test_conversions_round_and_saturate_and_slct_selects_by_sign():
    src = r"""
__global__ void k(int *o, unsigned *u, const float *f, const int *c) {
  int i = threadIdx.x; int r; unsigned q;
  asm("cvt.rni.sat.s32.f32 %0, %1;" : "=r"(r) : "f"(f[i])); o[2 * i] = r;
  asm("cvt.rmi.sat.u32.f32 %0, %1;" : "=r"(q) : "f"(f[i])); u[i] = q;
  asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(10), "r"(20), "r"(c[i])); o[2 * i + 1] = r;
}"""
    module = load_source(src, "cuda")
    f = np.array([1.5, 2.5, -1.5, 3e10, -3e10, np.nan, 0.49, -7.7], np.float32)
    c = np.array([0, -1, 5, -9, 1, 0, -2, 3], np.int32)
    args = {"o": np.zeros(16, np.int32), "u": np.zeros(8, np.uint32), "f": f, "c": c}
    result = run(module, module.kernel(), Launch((1, 1, 1), (8, 1, 1), args))
    assert result.outcome.completed, result.outcome
    o = result.buffers["o"].reshape(8, 2)
    assert o[:, 0].tolist() == [2, 2, -2, 2**31 - 1, -(2**31), 0, 0, -8]  # ties to even; NaN to 0
    assert result.buffers["u"].view(np.uint32).tolist() == [1, 2, 0, 2**32 - 1, 0, 0, 0, 0]
    assert o[:, 1].tolist() == [10, 20, 10, 20, 10, 10, 20, 10]
