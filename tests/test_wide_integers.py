"""Integer arithmetic wider than 64 bits that clang emits for 64-bit code (a 64-bit multiply by a constant at -O0
comes out as `zext to i128; mul i128; trunc`): done in 64 bits when only the low bits are kept (found by
`simu generate`); arithmetic that needs the high bits stays unsupported, never wrong."""

from __future__ import annotations

import numpy as np
import pytest

from simu.api import load_source, run_opencl_source
from simu.errors import UnsupportedError
from simu.interp import run
from simu.launch.model import Launch

MUL_BY_CONSTANT = """
__kernel void k(__global const uint *a, __global uint *out, const uint n)
{ const uint gid = get_global_id(0); ulong h = (ulong)a[gid] * 3ull; out[gid] = (uint)(h >> 7); }
"""


def test_a_64_bit_multiply_by_a_constant_runs_in_64_bits():
    a = np.random.default_rng(1).integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    launch = Launch((2, 1, 1), (32, 1, 1), {"a": a, "out": np.zeros(64, np.uint32), "n": np.uint32(64)})
    r = run_opencl_source(MUL_BY_CONSTANT, "k", launch)
    assert r.outcome.completed
    assert (r.buffers["out"] == ((a.astype(np.uint64) * np.uint64(3)) >> np.uint64(7)).astype(np.uint32)).all()


def test_the_high_half_of_a_128_bit_product_stays_unsupported():
    src = """__global__ void hi(const unsigned long long *a, unsigned long long *out) {
      unsigned __int128 p = (unsigned __int128)a[threadIdx.x] * a[threadIdx.x];
      out[threadIdx.x] = (unsigned long long)(p >> 64); }"""
    m = load_source(src, "cuda", path="hi.cu")
    with pytest.raises(UnsupportedError, match="i128"):
        run(m, None, Launch(1, 32, {"a": np.ones(32, np.uint64), "out": np.zeros(32, np.uint64)}))
