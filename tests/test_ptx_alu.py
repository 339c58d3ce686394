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
