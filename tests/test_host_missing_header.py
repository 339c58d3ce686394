"""A third-party header the checkout does not have (a framework's tensor header in an extension's kernel file) is
a fatal error to clang, which then drops the launches of the template kernels after it.  The host reader parses the
file again with the missing headers as empty stand-ins, so the launches in a `switch` over the block size keep the
block each arm gives."""

from __future__ import annotations

from pathlib import Path

from simu.host.ast.program import read_host_file
from simu.scan import ScanOverrides, resolve_options, scan

KERNELS = """#include <framework/serialize/tensor.h>
#include <cuda_runtime.h>

inline int threads_for(int work) {
    int p = 1;
    while (p < work && p < 1024) p <<= 1;
    return p;
}

template <unsigned int block_size>
__global__ void rotate(float *out) {
    __shared__ float s[block_size];
    s[threadIdx.x] = out[threadIdx.x];
    out[threadIdx.x] = s[(threadIdx.x + 1) % block_size];  // no barrier in between: a race between warps
}

void rotate_launcher(int b, int n, float *out) {
    unsigned int n_threads = threads_for(n);
    switch (n_threads) {
        case 1024: rotate<1024><<<b, n_threads>>>(out); break;
        case 16: rotate<16><<<b, n_threads>>>(out); break;
        default: rotate<4><<<b, n_threads>>>(out);
    }
}
"""

WRAPPER = """void rotate_launcher(int b, int n, float *out);
int rotate_wrapper(int b, int n, float *out) { rotate_launcher(b, n, out); return 1; }
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "rotate_gpu.cu").write_text(KERNELS)
    (tmp_path / "rotate.cpp").write_text(WRAPPER)
    return tmp_path


def test_launches_after_a_missing_header_are_read_through_clang(tmp_path: Path):
    root = _project(tmp_path)
    facts = read_host_file(root / "rotate_gpu.cu", root)
    (launcher,) = [f for f in facts if f.name == "rotate_launcher"]
    assert [(x.kernel, x.line) for x in launcher.launches] == [("rotate", 20), ("rotate", 21), ("rotate", 22)]


def test_each_arm_launches_its_instance_at_its_block(tmp_path: Path):
    options, config = resolve_options([_project(tmp_path)], ScanOverrides(budget=1, jobs=1, no_cache=True))
    result = scan(options, config)
    kernels = {k.name: k for f in result.files for k in f.kernels}
    race = [f for f in kernels["rotate<1024U>"].findings if f.kind == "race"]
    assert race and race[0].severity == "error" and tuple(race[0].launch.block) == (1024, 1, 1)
    assert "values read through clang" in race[0].launch.origin and "block searched" not in race[0].launch.origin
    assert kernels["rotate<16U>"].findings == []  # one warp: no race between warps at the arm's block
