"""A ``getelementptr`` whose index is ``undef``/``poison``: an uninitialised index variable (``long j;
a[j]``) is folded to one at every optimisation level, here beside a device ``printf`` (clang's
``vprintf`` with a stack buffer of the arguments).  The machine gives every undef value zero bits
(values.constant), so the index is 0 (issue 29, item 7)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from simu.api import load_source
from simu.cli import app
from simu.frontend import CompileOptions
from simu.interp import run
from simu.launch import Launch

runner = CliRunner()
N = 32

PRINTF = r"""
#include <cstdio>
__global__ void k(const float *a, float *out) {
    long j;
    float x = a[j];
    printf("%d %f\n", threadIdx.x, x);
    out[threadIdx.x] = x + (float)threadIdx.x;
}
"""


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_uninitialised_index_beside_printf_reads_element_zero(level):
    m = load_source(PRINTF, "cuda", CompileOptions(opt_level=level), path="printf.cu")
    k = m.kernels[0]
    ir = "\n".join(i.text for b in k.function.blocks for i in b.instrs)
    assert "i64 undef" in ir and "@vprintf" in ir  # the construct this test is about
    a = np.arange(10, 10 + N, dtype=np.float32)
    names = [p.name for p in k.params]
    r = run(m, k, Launch((1, 1, 1), (N, 1, 1), dict(zip(names, [a, np.zeros(N, np.float32)], strict=True))))
    assert r.outcome.completed, str(r.outcome)
    assert not r.memory_errors
    assert (r.buffers[names[1]].view(np.float32) == a[0] + np.arange(N)).all()


UNDEF_GEPS = """
define ptx_kernel void @k(ptr addrspace(1) %o, ptr addrspace(1) %a) {
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, ptr addrspace(1) %a, i64 undef
  %x = load float, ptr addrspace(1) %p
  %q = getelementptr [4 x float], ptr addrspace(1) %a, i64 0, i64 poison
  %y = load float, ptr addrspace(1) %q
  %r = getelementptr [4 x float], ptr addrspace(1) %a, i64 undef, i64 2
  %z = load float, ptr addrspace(1) %r
  %s = fadd float %x, %y
  %t = fadd float %s, %z
  %po = getelementptr float, ptr addrspace(1) %o, i32 %i
  store float %t, ptr addrspace(1) %po
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"""


def test_undef_and_poison_indices_in_ir_are_zero():
    m = load_source(UNDEF_GEPS, "llvm")
    k = m.kernel()
    a = np.array([1.0, 10.0, 100.0, 1000.0], np.float32)
    names = [p.name for p in k.params]
    r = run(m, k, Launch((1, 1, 1), (4, 1, 1), dict(zip(names, [np.zeros(4, np.float32), a], strict=True))))
    assert r.outcome.completed, str(r.outcome)
    assert (r.buffers[names[0]].view(np.float32) == 1.0 + 1.0 + 100.0).all()


def test_check_cli_on_the_printf_kernel(tmp_path):
    (tmp_path / ".git").mkdir()
    path = tmp_path / "printf.cu"
    path.write_text(PRINTF)
    for extra in (["--grid", "1", "--block", "32"], ["--budget", "3"], ["-O2", "--grid", "1", "--block", "32"]):
        res = runner.invoke(app, ["check", str(path), *extra])
        assert res.exit_code == 0, res.output
        assert "Traceback" not in res.output and "analysed" in res.output
