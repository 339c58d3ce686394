"""Kernels written for GPUVerify: its launch options in the file's header (``//--local_size=64 --num_groups=16``,
``//--blockDim=32 --gridDim=2``) are the user's launch, its annotations compile, and ``__requires``/``__assume``
reject the launches that break them (simu/include/cuda/__simu_gpuverify.h, simu.launch.comments)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from simu.cli import app
from simu.launch.comments import gpuverify_launch

runner = CliRunner()

RACY_CUDA = """//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2
#include <cuda.h>
__global__ void race(int *p, int n) {
  __requires(n == 64);
  for (int j = 0; __invariant(j >= 0), __global_invariant(__implies(__write(p), j >= 0)), j < 2; j++) {
    p[threadIdx.x] += n;
  }
}
"""

CLEAN_OPENCL = """//pass
//--local_size=[16,4] --global_size=[64,8]
__kernel void scale(__global float *a, int w) {
  __requires(w == 64);
  __requires(__is_pow2(get_local_size(0)));
  int x = get_global_id(0), y = get_global_id(1);
  for (int k = 0; __invariant(__no_read(a)), __invariant(__uniform_int(k)), k < 2; k++) {
    a[y * w + x] *= 2.0f;
  }
  __assert(__implies(__write(a), __write_offset_bytes(a) / sizeof(float) == y * w + x));
}
"""

IMPOSSIBLE = """//--blockDim=64 --gridDim=1
__global__ void never(int *p) {
  __requires(blockDim.x == 32);
  p[threadIdx.x] = 1;
}
"""


def _check(path: Path) -> list[dict]:
    res = runner.invoke(app, ["check", str(path), "--format", "json", "--budget", "60"])
    assert res.exit_code in (0, 1, 2), res.output
    return json.loads(res.stdout)["files"][0]["kernels"]


def test_the_launch_options_of_a_gpuverify_header():
    c = gpuverify_launch(["//pass", "//--local_size=[64,2] --num_groups=[16,16] --no-inline"])
    assert c.grid == (16, 16, 1) and c.block == (64, 2, 1)
    said = "`--local_size=[64,2] --num_groups=[16,16]`"
    assert c.origin == f"the file's header comment {said} (GPUVerify's launch options)"
    c = gpuverify_launch(["//--local_size=64 --global_size=1024"])
    assert (c.grid, c.block) == ((16, 1, 1), (64, 1, 1))
    assert gpuverify_launch(["//--blockDim=32 --gridDim=2"]).grid == (2, 1, 1)
    assert gpuverify_launch(["// launch: grid=2 block=32", "//--no-inline"]) is None


def test_a_race_between_the_blocks_the_header_launches(tmp_path: Path):
    (tmp_path / "race.cu").write_text(RACY_CUDA)
    (kernel,) = _check(tmp_path / "race.cu")
    races = [f for f in kernel["findings"] if f["kind"] == "race"]
    assert races and all(f["severity"] == "error" and f["launch"]["grid"] == [2, 1, 1] for f in races)
    assert all(f["launch"]["scalars"]["n"] == 64 for f in races)
    assert "GPUVerify's launch options" in races[0]["launch"]["origin"]


def test_annotated_opencl_compiles_and_is_clean_at_its_launch(tmp_path: Path):
    (tmp_path / "scale.cl").write_text(CLEAN_OPENCL)
    (kernel,) = _check(tmp_path / "scale.cl")
    assert kernel["status"] == "analysed" and kernel["findings"] == []


def test_a_launch_that_breaks_a_requires_is_not_one_the_kernel_is_written_for(tmp_path: Path):
    (tmp_path / "never.cu").write_text(IMPOSSIBLE)
    (kernel,) = _check(tmp_path / "never.cu")
    assert kernel["status"] == "not-launchable" and kernel["findings"] == []
    assert "breaks the kernel's __requires/__assume (line 3)" in kernel["reason"]


def test_the_defines_of_a_gpuverify_option_line_build_the_kernel(tmp_path: Path):
    (tmp_path / "def.cl").write_text("//--local_size=64 --num_groups=4 -DWIDTH=64 -DTWICE\n"
                                     "__kernel void foo(__global int *p) {\n#ifdef TWICE\n"
                                     "  p[get_global_id(0) % WIDTH] = get_global_id(0);\n#endif\n}\n")
    (kernel,) = _check(tmp_path / "def.cl")
    races = [f for f in kernel["findings"] if f["kind"] == "race"]
    assert races and all(f["launch"]["grid"] == [4, 1, 1] and f["launch"]["block"] == [64, 1, 1] for f in races)
