"""Inline PTX scalar video instructions (simu/interp/ptx_video.py) against the PTX ISA's definition, in Python."""

from __future__ import annotations

import numpy as np

from simu.api import load_source
from simu.interp import run
from simu.launch import Launch

# the forms a rasteriser's utility header writes: half-word and byte selectors, signed and unsigned, a merge into
# the third operand's low byte, a multiply-add of a byte, saturation and a secondary max
KERNEL = r"""
__global__ void video(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out) {
  int t = threadIdx.x;
  unsigned x = a[t], y = b[t], z = c[t], r;
  int s;
  unsigned *o = out + t * 9;
  asm("vadd.s32.s32.s32 %0, %1.h0, %2.h0;" : "=r"(s) : "r"(x), "r"(y)); o[0] = (unsigned)s;
  asm("vsub.s32.s32.s32 %0, %1.h1, %2.h0;" : "=r"(s) : "r"(x), "r"(y)); o[1] = (unsigned)s;
  asm("vsub.s32.u32.u32 %0, %1.h0, %2.h1;" : "=r"(s) : "r"(x), "r"(y)); o[2] = (unsigned)s;
  asm("vadd.u32.u32.u32 %0, %1.b2, %2;" : "=r"(r) : "r"(x), "r"(y)); o[3] = r;
  asm("vmad.u32.u32.u32 %0, %1.b1, %2.b3, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[4] = r;
  asm("vadd.u32.u32.u32 %0.b0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[5] = r;
  asm("vadd.s32.s32.s32.sat %0, %1, %2;" : "=r"(s) : "r"(x), "r"(y)); o[6] = (unsigned)s;
  asm("vabsdiff.u32.u32.u32 %0, %1.b0, %2.b0;" : "=r"(r) : "r"(x), "r"(y)); o[7] = r;
  asm("vsub.s32.s32.s32.max %0, %1.b1, %2.b1, %3;" : "=r"(s) : "r"(x), "r"(y), "r"(z)); o[8] = (unsigned)s;
}
"""

M32 = 0xFFFFFFFF


def _field(v: int, shift: int, width: int, signed: bool) -> int:
    f = (v >> shift) & ((1 << width) - 1)
    return f - (1 << width) if signed and f >> (width - 1) else f


def _signed(v: int) -> int:
    return v - (1 << 32) if v >> 31 else v


def _reference(x: int, y: int, z: int) -> list[int]:
    merged = (z & ~0xFF) | ((x + y) & 0xFF)
    saturated = max(-(1 << 31), min((1 << 31) - 1, _signed(x) + _signed(y)))
    return [v & M32 for v in (
        _field(x, 0, 16, True) + _field(y, 0, 16, True),
        _field(x, 16, 16, True) - _field(y, 0, 16, True),
        _field(x, 0, 16, False) - _field(y, 16, 16, False),
        _field(x, 16, 8, False) + y,
        _field(x, 8, 8, False) * _field(y, 24, 8, False) + z,
        merged,
        saturated,
        abs(_field(x, 0, 8, False) - _field(y, 0, 8, False)),
        max(_field(x, 8, 8, True) - _field(y, 8, 8, True), _signed(z)),
    )]


def test_video_instructions_match_the_isa():
    module = load_source(KERNEL, "cuda")
    rng = np.random.default_rng(7)
    a, b, c = (rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    a[0], b[0] = 0x7FFFFFFF, 0x7FFFFFFF  # saturates high
    a[1], b[1] = 0x80000000, 0x80000000  # saturates low
    args = {"a": a, "b": b, "c": c, "out": np.zeros(64 * 9, np.uint32)}
    result = run(module, module.kernel(), Launch((1, 1, 1), (64, 1, 1), args))
    assert result.outcome.completed, result.outcome
    got = result.buffers["out"].view(np.uint32).reshape(64, 9)
    for t in range(64):
        assert list(map(int, got[t])) == _reference(int(a[t]), int(b[t]), int(c[t])), t
