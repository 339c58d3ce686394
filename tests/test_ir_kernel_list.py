"""The kernel list of hand-written IR: calling convention ∪ !nvvm.annotations ∪ !opencl.kernels."""

import numpy as np

from simu.api import load_source
from simu.frontend.kernel_names import kernel_names
from simu.interp import run
from simu.launch import Launch

BODY = """{
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %o, i32 %i
  store i32 %i, ptr addrspace(1) %p
  ret void
}
"""

ANNOTATED = f"""
define void @annotated(ptr addrspace(1) %o) {BODY}
define ptx_kernel void @by_convention(ptr addrspace(1) %o) {BODY}
define void @helper(ptr addrspace(1) %o) {BODY}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{{!0, !1}}
!0 = !{{ptr @annotated, !"kernel", i32 1}}
!1 = !{{ptr @helper, !"maxntidx", i32 64}}
"""


def test_nvvm_annotations_mark_kernels():
    module = load_source(ANNOTATED, "llvm")
    names = sorted(k.name for k in module.kernels)
    assert names == ["annotated", "by_convention"]  # helper carries an annotation, but not "kernel"
    k = module.kernel("annotated")
    assert k.language == "cuda"
    res = run(module, k, Launch(grid=(1, 1, 1), block=(8, 1, 1), args={"arg0": np.zeros(8, np.int32)}))
    assert list(res.buffers["arg0"]) == list(range(8))


def test_opencl_kernels_metadata_and_typed_pointer_annotations():
    ir = """
define spir_func void @k1(ptr addrspace(1) %o) { ret void }
define void @"k 2"(float addrspace(1)* %o) { ret void }
!opencl.kernels = !{!3}
!nvvm.annotations = !{!4}
!3 = !{ptr @k1, !5}
!4 = !{void (float addrspace(1)*)* @"k 2", !"kernel", i32 1}
!5 = !{!"kernel_arg_addr_space", i32 1}
"""
    assert kernel_names(ir) == {"k1": "opencl", "k 2": "cuda"}
    assert kernel_names("define spir_kernel void @s() {\n") == {"s": "opencl"}
