"""Scale: only what a kernel reaches is decoded (counts, not seconds)."""

from __future__ import annotations

import numpy as np

from simu.api import load_file, load_source
from simu.bench.irscale import cuda_source, opencl_source
from simu.interp import Limits, run
from simu.interp.compiler import compile_kernel
from simu.ir import load_module
from simu.launch import Launch


def _bodies(module) -> set[str]:
    """Defined functions whose blocks have been decoded."""
    return {f.name for f in module.functions.values() if f.decoded and not f.is_declaration}


def _unreachable_file(n: int) -> str:
    helpers = "".join(f"int unused{i}(int x) {{ return x * {i} + {i % 7}; }}\n" for i in range(n))
    return helpers + (
        "int twice(int x) { return 2 * x; }\n"
        "__kernel void kx(__global int *a) { int i = get_global_id(0); a[i] = twice(a[i]) + 1; }\n"
        "__kernel void ky(__global int *a) { a[get_global_id(0)] = unused3(1); }\n")


def test_helpers_no_kernel_reaches_are_dropped_before_decoding():
    module = load_source(_unreachable_file(2000), "opencl", path="many.cl")
    assert sorted(k.name for k in module.kernels) == ["kx", "ky"]
    defined = {f.name for f in module.functions.values() if not f.is_declaration}
    assert defined == {"kx", "ky"}  # twice and unused3 inlined, the other 1999 helpers gone
    assert _bodies(module) == set() and module.instrs == []
    kx = module.kernel("kx")
    compile_kernel(module, kx)
    assert _bodies(module) == {"kx"}
    assert len(module.instrs) == sum(len(b.instrs) for b in kx.function.blocks)
    a = np.arange(64, dtype=np.int32)
    r = run(module, kx, Launch(1, 64, {"a": a}), Limits(max_seconds=60))
    assert r.outcome.completed
    assert (r.buffers["a"] == 2 * np.arange(64) + 1).all()


def test_module_with_2000_unreachable_functions_decodes_only_the_kernel():
    unused = "".join(f"define i32 @unused{i}(i32 %x) {{\nentry:\n  %y = mul i32 %x, {i}\n  ret i32 %y\n}}\n"
                     for i in range(2000))
    ir = ('target triple = "spir64-unknown-unknown"\n' + unused +
          "define spir_kernel void @kx(ptr addrspace(1) %p) {\nentry:\n  store i32 5, ptr addrspace(1) %p, align 4\n"
          "  ret void\n}\n")
    module = load_module(ir, "many.ll", "opencl")
    assert [k.name for k in module.kernels] == ["kx"]
    assert len(module.functions) == 2001 and _bodies(module) == set()
    compile_kernel(module, module.kernel("kx"))
    assert _bodies(module) == {"kx"}
    assert [i.opcode for i in module.instrs] == ["store", "ret"]


def test_a_called_function_is_decoded_only_when_its_caller_is():
    ir = """
target triple = "spir64-unknown-unknown"
define void @leaf(ptr addrspace(1) %p) {
entry:
  store i32 7, ptr addrspace(1) %p, align 4
  ret void
}
define void @other(ptr addrspace(1) %p) {
entry:
  store i32 9, ptr addrspace(1) %p, align 4
  ret void
}
define spir_kernel void @k(ptr addrspace(1) %p) {
entry:
  call void @leaf(ptr addrspace(1) %p)
  ret void
}
"""
    module = load_module(ir, "calls.ll", "opencl")
    assert [k.name for k in module.kernels] == ["k"]
    assert _bodies(module) == set()
    blocks = module.kernel("k").function.blocks
    assert [i.opcode for i in blocks[0].instrs] == ["call", "ret"]
    assert _bodies(module) == {"k"}
    assert [i.opcode for i in module.functions["leaf"].blocks[0].instrs] == ["store", "ret"]
    assert not module.functions["other"].decoded


def test_generated_large_file_small_variant_runs(tmp_path):
    """The benchmark's generator at test size: each crack kernel reaches only its own hash family."""
    path = tmp_path / "crack.cl"
    path.write_text(opencl_source(families=3, rounds=8, table=16))
    module = load_file(path)
    assert sorted(k.name for k in module.kernels) == sorted(
        [f"crack{f}" for f in range(3)] + [f"verify{f}" for f in range(3)])
    k = module.kernel("crack1")
    compile_kernel(module, k)
    assert _bodies(module) == {"crack1"}
    words = np.arange(4 * 16, dtype=np.uint32)
    r = run(module, k, Launch(1, 4, {"words": words, "digests": np.zeros(16, np.uint32), "n": 4}),
            Limits(max_seconds=60))
    assert r.outcome.completed
    assert len(set(map(tuple, r.buffers["digests"].reshape(4, 4).tolist()))) == 4  # four distinct digests


def test_generated_cuda_variant_lists_its_kernels(tmp_path):
    path = tmp_path / "crack.cu"
    path.write_text(cuda_source(families=2, rounds=8, table=16))
    module = load_file(path)
    assert sorted(k.name for k in module.kernels) == ["crack0", "crack1", "verify0", "verify1"]
    compile_kernel(module, module.kernel("verify1"))
    assert _bodies(module) == {"verify1"}
