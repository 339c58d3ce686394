"""LLVM intrinsics that optimised builds emit, checked against exact integer arithmetic."""

from __future__ import annotations

import numpy as np

from simu.api import load_source
from simu.interp import run
from simu.launch import Launch

SATURATING = """
define ptx_kernel void @k(ptr addrspace(1) %o, ptr addrspace(1) %a, ptr addrspace(1) %b) {
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %i
  %pb = getelementptr i32, ptr addrspace(1) %b, i32 %i
  %x = load i32, ptr addrspace(1) %pa
  %y = load i32, ptr addrspace(1) %pb
  %r1 = call i32 @llvm.usub.sat.i32(i32 %x, i32 %y)
  %r2 = call i32 @llvm.uadd.sat.i32(i32 %x, i32 %y)
  %r3 = call i32 @llvm.ssub.sat.i32(i32 %x, i32 %y)
  %r4 = call i32 @llvm.sadd.sat.i32(i32 %x, i32 %y)
  %j = mul i32 %i, 4
  %p1 = getelementptr i32, ptr addrspace(1) %o, i32 %j
  store i32 %r1, ptr addrspace(1) %p1
  %j2 = add i32 %j, 1
  %p2 = getelementptr i32, ptr addrspace(1) %o, i32 %j2
  store i32 %r2, ptr addrspace(1) %p2
  %j3 = add i32 %j, 2
  %p3 = getelementptr i32, ptr addrspace(1) %o, i32 %j3
  store i32 %r3, ptr addrspace(1) %p3
  %j4 = add i32 %j, 3
  %p4 = getelementptr i32, ptr addrspace(1) %o, i32 %j4
  store i32 %r4, ptr addrspace(1) %p4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.usub.sat.i32(i32, i32)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare i32 @llvm.ssub.sat.i32(i32, i32)
declare i32 @llvm.sadd.sat.i32(i32, i32)
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"""


def _wrap(v: int) -> int:
    return ((v + 2**31) % 2**32) - 2**31


def _expected(x: int, y: int) -> list[int]:
    ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
    clamp = lambda v: min(max(v, -2**31), 2**31 - 1)
    return [_wrap(max(ux - uy, 0)), _wrap(min(ux + uy, 2**32 - 1)), clamp(x - y), clamp(x + y)]


def test_saturating_add_and_sub_are_exact():
    module = load_source(SATURATING, "llvm")
    kernel = module.kernel()
    a = np.array([5, 0, 2**31 - 1, -2**31, -1294967296, 7, -5, 0], np.int32)
    b = np.array([3, 1, 1, 1, -1294967296, -8, 2, 0], np.int32)
    names = [p.name for p in kernel.params]
    launch = Launch((1, 1, 1), (8, 1, 1), dict(zip(names, [np.zeros(32, np.int32), a, b], strict=True)))
    result = run(module, kernel, launch)
    assert result.outcome.completed
    got = result.buffers[names[0]].view(np.int32).reshape(8, 4)
    want = np.array([_expected(int(x), int(y)) for x, y in zip(a, b, strict=True)], np.int64)
    assert (got == want).all(), got


VECTOR_BITCAST_PHI = """
define ptx_kernel void @k(ptr addrspace(1) %o, i32 %c) {
entry:
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cond = icmp sgt i32 %c, 0
  br i1 %cond, label %a, label %b
a:
  br label %b
b:
  %v = phi <2 x i32> [ bitcast (<1 x i64> splat (i64 4294967298) to <2 x i32>), %entry ], [ <i32 7, i32 9>, %a ]
  %x = extractelement <2 x i32> %v, i32 0
  %y = extractelement <2 x i32> %v, i32 1
  %s = mul i32 %y, 100
  %t = add i32 %x, %s
  %p = getelementptr i32, ptr addrspace(1) %o, i32 %i
  store i32 %t, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"""


def test_a_constant_vector_bitcast_reads_the_same_bytes():
    """``bitcast (<1 x i64> splat (i64 0x100000002) to <2 x i32>)`` (as -O0 SROA leaves in a phi) is <2, 1>."""
    module = load_source(VECTOR_BITCAST_PHI, "llvm")
    kernel = module.kernel()
    names = [p.name for p in kernel.params]
    for c, want in ((0, 2 + 100 * 1), (1, 7 + 100 * 9)):
        result = run(module, kernel, Launch((1, 1, 1), (2, 1, 1), {names[0]: np.zeros(2, np.int32), names[1]: c}))
        assert result.outcome.completed
        assert list(result.buffers[names[0]].view(np.int32)) == [want, want]
